/**
 * The test fakes of the unit tests, in one place:
 *  - client.ts          FakeClient / fakeClient(): a scripted PayOnUsClient, and context()
 *  - errors.ts          httpError(): the PayOnUsApiError the real client throws
 *  - n8nErrors.ts       n8nHttpError() / n8nNetworkError() / n8nTimeout(): what n8n's
 *                       request helpers throw (its own NodeApiError over an AxiosError)
 *  - executeContext.ts  fakeExecuteContext(): a minimal IExecuteFunctions for the action node
 * Imported by path, not from here:
 *  - transport.ts       a jest.mock stand-in for nodes/shared/transport (trigger tests)
 *  - notifications.ts   webhookRequest(): one request through the trigger's webhook
 *                       (a fake n8n context); a payin as listed, a signed delivery, the
 *                       fake service's list (with transport.ts's stand-in)
 * The stand-in n8n over n8n-core's REAL request helpers (transport tests) is
 * dev/inProcessN8n.ts: the benches and the money drills run it too.
 */
export * from './client';
export * from './errors';
export * from './n8nErrors';
export * from './executeContext';
