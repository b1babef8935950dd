// Transport conformance suite: exported for every transport's tests (filled by the engine work).
export {};
