// This package has no code yet: see its README.
export {};
