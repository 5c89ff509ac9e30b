/** The delivery stage (see the package's README). */
export {};
