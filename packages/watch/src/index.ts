/** Alert rules over the store's history (see the package's README). */
export {};
