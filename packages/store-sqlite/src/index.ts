// Built out by issue 7.
export {};
