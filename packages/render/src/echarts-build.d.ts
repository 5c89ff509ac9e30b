// The one-file ECharts build has no declarations of its own: it exports what `echarts` does.
declare module 'echarts/dist/echarts.esm.min.mjs' {
  export * from 'echarts';
}
