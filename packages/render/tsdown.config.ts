import { packageConfig } from '../../tsdown.base.ts';

// `templates` checks template directories, `warmup` starts loading the renderer, `format` is the
// number formatter (the mail's too) and `chromium` names the default Chromium, none loading
// the renderer's heavy dependencies at import.
export default packageConfig({
  entry: {
    index: 'src/index.ts',
    templates: 'src/templates-entry.ts',
    warmup: 'src/warmup.ts',
    format: 'src/format-entry.ts',
    documents: 'src/documents.ts',
    chromium: 'src/chromium.ts',
    message: 'src/message.ts',
    // The render thread's entry (render-thread.ts starts it from beside its own chunk).
    'render-worker': 'src/render-worker.ts',
    // Run by the build once bundled: the built-in templates compiled (internal/builtin-compiled.ts).
    'precompile-templates': 'src/precompile-templates.ts',
  },
});
