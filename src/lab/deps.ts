/** The lab's HTTP side (TLS material, REST API, index store), built in src/lab/api and src/lab/tls.ts. */
export { IndexStore } from './api/store.ts';
export { createApiServer } from './api/server.ts';
export { generateLabTls } from './tls.ts';
