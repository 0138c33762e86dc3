// `airspace-publisher/client` (docs/client.md): keep the service's collections current in an app, in Node ≥ 20 and
// current browsers, with nothing beyond fetch and WebCrypto. The folder storage for Node is
// `airspace-publisher/client/folder`; IndexedDB for browsers `airspace-publisher/client/indexeddb`.
export { type Activity, activeAt, type Band } from "./active.js";
export { type Client, ClientError, type ClientOptions, createClient, type SyncResult } from "./client.js";
export { featuresDigest } from "./digest.js";
export { type ClientStorage, type HeldCountry, memoryStorage } from "./storage.js";
