/**
 * Real-n8n harness: starts the chosen n8n (installed once by install/, plain
 * JavaScript, into a cache folder) with this package installed the way a
 * community install does it, creates the owner and an API key, and talks to
 * it over HTTP. Used by the e2e tests, the benches and `npm start`.
 *
 *   const n8n = await startN8n();                        // sqlite, one main
 *   const n8n = await startN8n({ db: 'postgres' });      // fresh Postgres database
 *   const second = await n8n.startSecondMain();          // 2nd main, same database
 *   const n8n = await startN8n({ db: 'postgres', queueWorkers: 2 }); // queue mode
 *   const n8n = await startN8n({ db: 'postgres', queueWorkers: 1, webhookProcesses: 2 });
 *   n8n.webhookBaseUrls;  // ['http://127.0.0.1:<port>', ...]: one `n8n webhook` process each
 *   ...
 *   await n8n.stop();   // kills n8n, workers and task runners, removes temp folders, drops the DB
 *
 * Nothing is built here: `npm run build` must have produced dist/ first.
 */
//
// The harness in parts (each file says what it holds):
//   install/      the installer (plain JS, runs before any build): versions, cache, check, install
//   version.ts    which n8n this process runs (PAYONUS_N8N_VERSION), its install folder, the package root
//   pack.ts       `npm pack` of this package and the community install into a user folder
//   services.ts   free ports, Postgres databases, Redis prefixes
//   processes.ts  spawning n8n processes, stopping them, clean-up at exit
//   env.ts        the environment n8n starts with
//   ready.ts      owner set-up or login, the API key, workers and webhook processes ready
//   start.ts      startN8n: all of the above for one instance (SQLite, Postgres, queue mode)
//   client.ts     N8nClient: public API, editor REST API, executions, activation
//   instance.ts   N8nInstance: a client that also owns its processes (stop, logs, 2nd main)
//   types.ts      StartOptions, N8nConnection, N8nHandle, WorkflowJson, OWNER
//   execution.ts  reading items and errors out of an execution

export type { Execution } from './execution';
export { nodeItems, nodeError, nodeErrorItem, executedNodes, executionData, parseFlatted } from './execution';
export { PACKAGE_NAME, N8N_VERSIONS, N8N_VERSION, n8nInstallDir, n8nNode, n8nVersionAtLeast, packageRoot, ensureN8nInstalled } from './version';
export { packPackage } from './pack';
export { freePort, pgUser } from './services';
export { OWNER, type WorkflowJson, type WorkflowSummary, type CredentialSummary, type StartOptions, type N8nConnection, type N8nHandle } from './types';
export { HttpError, N8nClient, isFinished } from './client';
export { N8nInstance } from './instance';
export { startN8n } from './start';
