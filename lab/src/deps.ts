/** The lab's HTTP side (TLS material, REST API, index store), built in api/ and tls.ts. */
export { IndexStore } from './api/store.ts';
export { createApiServer } from './api/server.ts';
export { generateLabTls } from './tls.ts';
