/**
 * The payment page still imports the seen-keys memory from here. It moved to
 * nodes/shared/claim/ (memory.ts, under the claim mechanism of index.ts);
 * once the page claims through nodes/shared/claim/index.ts, this file goes.
 */
export { readPersistedKeys, SeenKeys, SeenRegistry, type SeenWindow } from './claim/memory';
