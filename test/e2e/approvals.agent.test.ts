/**
 * The payments agent example (examples/payments-agent-with-approval.json) in
 * a real n8n: n8n's AI Agent with the PayOnUs node as its tools, the money-
 * moving one (Pay a supplier) behind the Tools connector's Human review
 * (Approve the payment: Send Email, send and wait). The model is a scripted
 * stand-in (dev/scriptedChatModel.ts) behind n8n's own OpenAI Chat Model
 * node, the chat arrives at the Chat Trigger's production URL as a signed-in
 * user. Checked: the reads are not held; each payment call e-mails its
 * parameters and waits; Approve pays once; the Approve link followed twice at
 * once pays once; Decline pays nothing and the agent is told; no decision
 * within the Human review's time limit pays nothing (the agent reads the
 * user's message back as the reviewer's "feedback": the example's system
 * message tells it what that means);
 * the spending limits still refuse a call above them after it is approved.
 */
import { randomBytes } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';
import { startScriptedModel, type ScriptedModel, type Turn } from '../../dev/scriptedChatModel';
import { executionData, nodeItems, sharedN8n, type Execution, type N8nClient } from '../harness/e2e';
import { startSandbox, type SandboxHandle } from '../../sandbox/server';
import { SandboxClient } from '../../sandbox/client';
import { startMailCatcher, smtpCredentialData, type CaughtMail, type MailCatcher } from '../../dev/mailCatcher';
import { AUTH_COOKIE } from '../../dev/n8n/client';
import { loadExample, prepareExample, SMTP_CREDENTIAL_TYPE, type ExampleWorkflow } from '../../scripts/lib/examples';
import { credentialData, NO_MODEL_ANSWER } from '../../scripts/lib/provision';
import { sleep, until } from '../../dev/wait';
import { followLink } from './approvals.fixtures';

jest.setTimeout(300_000);

const RUN = randomBytes(4).toString('hex');
const MODEL_NODE = 'Chat model (choose yours)';
const REVIEW_NODE = 'Approve the payment';
/** The Human review's time limit in the e2e copy of the timeout case (the file says 60): n8n resumes the run by its own timer. */
const LIMIT_MINUTES = 1;

let n8n: N8nClient;
let sb: SandboxHandle;
let sandbox: SandboxClient;
let mail: MailCatcher;
let credential: { id: string; name: string };
let smtpCredential: { id: string; name: string };
const created: string[] = [];
const models: ScriptedModel[] = [];
const figures: string[] = [];

const pay = (amount: number, reference: string): Turn => ({
	calls: [
		{
			tool: 'Pay a supplier',
			// a tool behind Human review is offered as { toolParameters: <the tool's own parameters>, hitlParameters }
			args: {
				toolParameters: { amount, bankCode: '044', accountNumber: '9999991112', accountName: 'Sandbox Success Beneficiary', reference, narration: `Invoice ${reference}` },
				hitlParameters: {},
			},
		},
	],
});

/** The example, with the model node pointed at a scripted stand-in, imported and active; returns its chat URL. */
async function importAgent(script: Turn[], tag: string, limitMinutes?: number): Promise<{ id: string; chatUrl: string; model: ScriptedModel }> {
	const model = await startScriptedModel(script);
	models.push(model);
	const { id: openAiId } = await n8n.createCredential({ name: `scripted model ${RUN}-${tag}`, type: 'openAiApi', data: { apiKey: 'sk-scripted', header: false, url: model.url } });
	const workflow: ExampleWorkflow = prepareExample(loadExample('paymentsAgent'), {
		credential,
		smtpCredential,
		name: `${loadExample('paymentsAgent').name} (e2e ${RUN}-${tag})`,
		webhookIdSuffix: `${RUN}-${tag}`,
	});
	const modelNode = workflow.nodes.find((n) => n.name === MODEL_NODE)!;
	modelNode.parameters = { model: { __rl: true, mode: 'id', value: 'scripted' }, options: { baseURL: model.url } };
	modelNode.credentials = { openAiApi: { id: openAiId, name: `scripted model ${RUN}-${tag}` } };
	if (limitMinutes !== undefined) {
		const review = workflow.nodes.find((n) => n.name === REVIEW_NODE)!;
		const limit = (review.parameters as { options: { limitWaitTime: { values: IDataObject } } }).options.limitWaitTime.values;
		expect(limit).toEqual({ limitType: 'afterTimeInterval', resumeAmount: 60, resumeUnit: 'minutes' });
		limit.resumeAmount = limitMinutes;
	}
	const { id } = await n8n.createWorkflow(workflow as never);
	created.push(id);
	await n8n.activate(id);
	const chat = workflow.nodes.find((n) => n.type === '@n8n/n8n-nodes-langchain.chatTrigger')!;
	return { id, chatUrl: n8n.webhookUrl(`${String(chat.webhookId)}/chat`), model };
}

/** A signed-in n8n user types into the chat (the answer is not awaited: the run may wait for an approval). */
function chat(url: string, text: string): void {
	void fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', cookie: `${AUTH_COOKIE}=${n8n.cookie}` },
		body: JSON.stringify({ action: 'sendMessage', sessionId: `session-${RUN}-${Date.now()}`, chatInput: text }),
		signal: AbortSignal.timeout(240_000),
	})
		.then(async (res) => await res.arrayBuffer())
		.catch(() => undefined);
}

async function approvalMails(reference: string): Promise<CaughtMail[]> {
	return (await mail.messages()).filter((m) => m.subject.startsWith("Approve the payments agent's payout") && m.subject.includes(reference));
}

/** The approval e-mail of a payment, once it is in. */
async function approvalMail(reference: string): Promise<CaughtMail> {
	const [found] = await until('the approval e-mail', 90_000, async () => {
		const mails = await approvalMails(reference);
		return mails.length > 0 ? mails : undefined;
	});
	return found;
}

function links(message: CaughtMail): { approve: string; decline: string } {
	const hrefs = [...String(message.html).matchAll(/href="([^"]+)"/g)].map((m) => m[1].replace(/&amp;/g, '&'));
	return { approve: hrefs.find((h) => h.includes('approved=true'))!, decline: hrefs.find((h) => h.includes('approved=false'))! };
}

async function follow(url: string): Promise<number> {
	return (await followLink(url)).status;
}

async function transfers(reference: string): Promise<number> {
	return (await sandbox.ledger()).transfers.filter((t) => t.merchantReference === reference).length;
}

async function finishedRun(workflowId: string): Promise<Execution> {
	return await until('the agent run to finish', 120_000, async () => {
		const [run] = await n8n.listExecutions(workflowId, true);
		return run && ['success', 'error', 'crashed', 'canceled'].includes(String(run.status)) ? run : undefined;
	});
}

/** What the agent read back from its tools, in order. */
function toolResults(model: ScriptedModel): string[] {
	return model.requests[model.requests.length - 1].messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
}

beforeAll(async () => {
	n8n = sharedN8n();
	sb = await startSandbox({ port: 0 });
	sandbox = new SandboxClient(sb.url);
	mail = await startMailCatcher();
	const name = `PayOnUs agent approvals e2e ${RUN}`;
	credential = { id: (await n8n.createCredential({ name, type: 'payOnUsApi', data: credentialData(sb.url, `agent-key-${RUN}`) })).id, name };
	const smtpName = `Mail catcher agent e2e ${RUN}`;
	smtpCredential = { id: (await n8n.createCredential({ name: smtpName, type: SMTP_CREDENTIAL_TYPE, data: smtpCredentialData(mail) })).id, name: smtpName };
});

afterAll(async () => {
	for (const id of created) await n8n.deactivate(id).catch(() => undefined);
	for (const m of models) await m.stop();
	await mail?.stop();
	await sb?.stop();
	if (figures.length > 0) process.stdout.write(`\nagent approvals e2e figures:\n${figures.map((f) => `  ${f}`).join('\n')}\n`);
});

describe('payments agent with Human review (the example file)', () => {
	/** The chat left without a decision: started first, checked last (n8n resumes it by its own timer). */
	let unanswered: { id: string; model: ScriptedModel; ref: string; asked: number };

	beforeAll(async () => {
		const ref = `agent-late-${RUN}`;
		const { id, chatUrl, model } = await importAgent([pay(12_000, ref), { text: 'No one approved the payment in time; nothing was paid.' }], 'late', LIMIT_MINUTES);
		chat(chatUrl, 'Pay NGN 12,000 to account 9999991112 at bank 044');
		await approvalMail(ref);
		unanswered = { id, model, ref, asked: Date.now() };
	});

	it('as `npm start` sets it up: no model chosen, a stand-in credential lets n8n publish it, and the chat says to choose a model', async () => {
		const asIs = prepareExample(loadExample('paymentsAgent'), { credential, smtpCredential, name: `agent as is ${RUN}`, webhookIdSuffix: `${RUN}-as-is` });
		expect(asIs.nodes.find((n) => n.name === MODEL_NODE)?.credentials).toBeUndefined();
		// what provision.ts does: an OpenAI credential pointing at the stand-in, the file's node left as it is
		const standIn = await startScriptedModel([{ text: NO_MODEL_ANSWER }]);
		models.push(standIn);
		const { id: standInId } = await n8n.createCredential({ name: `stand-in ${RUN}`, type: 'openAiApi', data: { apiKey: 'sk-no-model-chosen', header: false, url: standIn.url } });
		const workflow = prepareExample(loadExample('paymentsAgent'), {
			credential,
			smtpCredential,
			chatModelCredential: { id: standInId, name: `stand-in ${RUN}` },
			name: `${loadExample('paymentsAgent').name} (e2e ${RUN}-stand-in)`,
			webhookIdSuffix: `${RUN}-stand-in`,
		});
		expect(workflow.nodes.find((n) => n.name === MODEL_NODE)?.parameters).toEqual(loadExample('paymentsAgent').nodes.find((n) => n.name === MODEL_NODE)?.parameters);
		const { id } = await n8n.createWorkflow(workflow as never);
		created.push(id);
		await n8n.activate(id);
		expect((await n8n.getWorkflow(id)).active).toBe(true);
		const chatNode = workflow.nodes.find((n) => n.type === '@n8n/n8n-nodes-langchain.chatTrigger')!;
		chat(n8n.webhookUrl(`${String(chatNode.webhookId)}/chat`), 'Pay NGN 1,000 to account 9999991112 at bank 044');
		const run = await finishedRun(id);
		expect(run.status).toBe('success');
		expect(String(nodeItems(run, 'Payments agent')[0].output)).toContain('No chat model is chosen yet');
	});

	it('reads are not held; a payment waits for the e-mail showing its parameters; Approve pays once; a second Approve pays nothing more', async () => {
		const ref = `agent-yes-${RUN}`;
		const { id, chatUrl, model } = await importAgent(
			[
				{ calls: [{ tool: 'Look up an account', args: { bankCode: '044', accountNumber: '9999991112' } }] },
				pay(20_000, ref),
				{ text: `Paid NGN 20,000 under ${ref}.` },
			],
			'yes',
		);
		chat(chatUrl, 'Pay invoice 17 of Sandbox Success Beneficiary, NGN 20,000, account 9999991112 at bank 044');
		const message = await approvalMail(ref);
		// the read ran before anyone was asked (not held): its answer is in the conversation
		expect(toolResults(model)[0]).toContain('Sandbox Success Beneficiary');
		expect(message.subject).toBe(`Approve the payments agent's payout: NGN 20000 to Sandbox Success Beneficiary (${ref})`);
		const html = String(message.html);
		expect(html).toContain('Amount: NGN 20000');
		expect(html).toContain('To: Sandbox Success Beneficiary, account 9999991112, bank 044');
		expect(html).toContain(`Reference: ${ref}`);
		expect(html).toContain(`Narration: Invoice ${ref}`);
		expect(html).toContain('Nothing has been sent yet.');
		expect(html).not.toMatch(/undefined|\[object Object\]/);
		await sleep(1000);
		expect(await transfers(ref)).toBe(0);
		// the run waits (n8n 2.8.4's public API does not list a waiting run; none has finished)
		const finished = (await n8n.listExecutions(id, false)).filter((e) => ['success', 'error', 'crashed', 'canceled'].includes(String(e.status)));
		expect(finished).toHaveLength(0);

		const { approve } = links(message);
		const clicked = Date.now();
		expect(await follow(approve)).toBe(200);
		await until('the approved transfer', 60_000, async () => ((await transfers(ref)) > 0 ? true : undefined));
		figures.push(`agent: Approve click -> transfer in the sandbox: ${Date.now() - clicked} ms`);
		const run = await finishedRun(id);
		expect(run.status).toBe('success');
		expect(String(nodeItems(run, 'Payments agent')[0].output)).toContain(`Paid NGN 20,000 under ${ref}`);
		const again = await follow(approve);
		await sleep(3000);
		expect(await transfers(ref)).toBe(1);
		expect(await approvalMails(ref)).toHaveLength(1);
		figures.push(`agent approve: reads held 0, approval e-mails 1, payouts 1; second Approve answered ${again}, payouts still 1`);
	});

	it('the Approve link followed twice at once (a double click): the tool runs once, one payout', async () => {
		const ref = `agent-twice-${RUN}`;
		const { id, chatUrl, model } = await importAgent([pay(10_000, ref), { text: `Paid NGN 10,000 under ${ref}.` }], 'twice');
		chat(chatUrl, 'Pay NGN 10,000 to account 9999991112 at bank 044');
		const message = await approvalMail(ref);
		const { approve } = links(message);
		const answers = await Promise.all([follow(approve), follow(approve)]);
		const run = await finishedRun(id);
		expect(run.status).toBe('success');
		expect(String(nodeItems(run, 'Payments agent')[0].output)).toContain(`Paid NGN 10,000 under ${ref}`);
		await sleep(3000);
		expect(await transfers(ref)).toBe(1);
		const posted = (await sandbox.requests()).filter((r) => r.method === 'POST' && String(r.path).endsWith('/bank-transfer') && (r.body as IDataObject).reference === ref);
		expect(posted).toHaveLength(1);
		// the agent read one tool result: the tool ran once
		expect(toolResults(model)).toHaveLength(1);
		expect(model.requests).toHaveLength(2);
		expect(await approvalMails(ref)).toHaveLength(1);
		figures.push(`agent approve twice at once: answered ${answers.join(' and ')}; approval e-mails 1, payouts 1, transfer requests 1`);
	});

	it('Decline: nothing is paid and the agent reads that the call was rejected', async () => {
		const ref = `agent-no-${RUN}`;
		const { id, model } = await importAgent([pay(15_000, ref), { text: 'The payment was declined; nothing was paid.' }], 'no').then(async (a) => {
			chat(a.chatUrl, 'Pay NGN 15,000 to account 9999991112 at bank 044');
			return a;
		});
		const message = await approvalMail(ref);
		expect(await follow(links(message).decline)).toBe(200);
		const run = await finishedRun(id);
		expect(run.status).toBe('success');
		const [result] = toolResults(model);
		expect(result).toMatch(/rejected/i);
		expect(Object.keys(executionData(run).resultData?.runData ?? {})).not.toContain('Pay a supplier');
		await sleep(2000);
		expect(await transfers(ref)).toBe(0);
		figures.push(`agent decline: approval e-mails ${(await approvalMails(ref)).length}, payouts 0`);
	});

	it('the spending limits still apply after an approval: a call above NGN 50,000 is approved by a person and refused by the tool', async () => {
		const ref = `agent-big-${RUN}`;
		const { id, chatUrl, model } = await importAgent([pay(75_000, ref), { text: 'The tool refused it: above the limit.' }], 'limit');
		chat(chatUrl, 'Pay NGN 75,000 to account 9999991112 at bank 044');
		const message = await approvalMail(ref);
		expect(await follow(links(message).approve)).toBe(200);
		const run = await finishedRun(id);
		expect(run.status).toBe('success');
		const [result] = toolResults(model);
		expect(result).toContain('"refused":true');
		expect(result).toContain('maxAmountPerCall');
		expect(await transfers(ref)).toBe(0);
		const posted = (await sandbox.requests()).filter((r) => r.method === 'POST' && String(r.path).endsWith('/bank-transfer') && (r.body as IDataObject).reference === ref);
		expect(posted).toHaveLength(0);
		figures.push(`agent above the limit: approval e-mails 1, approvals 1, payouts 0 (refused by maxAmountPerCall)`);
	});

	it(`no decision within the Human review's time limit (${LIMIT_MINUTES} min in this copy): nothing is paid and the agent is told`, async () => {
		const { id, model, ref, asked } = unanswered;
		const run = await until("the unanswered run resumed by the review's time limit", 240_000, async () => {
			const [found] = await n8n.listExecutions(id, true);
			return found && ['success', 'error', 'crashed', 'canceled'].includes(String(found.status)) ? found : undefined;
		});
		const waited = Date.now() - asked;
		const ran = Object.keys(executionData(run).resultData?.runData ?? {});
		expect(ran).not.toContain('Pay a supplier');
		expect(await transfers(ref)).toBe(0);
		const results = toolResults(model);
		const output = run.status === 'success' ? String(nodeItems(run, 'Payments agent')[0].output) : '';
		figures.push(`agent timeout: run ${String(run.status)} ${(waited / 1000).toFixed(0)} s after the e-mail; the agent read ${JSON.stringify(results)}; the chat shows ${JSON.stringify(output)}`);
		expect(run.status).toBe('success');
		expect(results).toHaveLength(1);
		// n8n passes the waiting node's input on when the time limit passes: the agent reads the user's own message
		// back as the reviewer's "feedback", not a rejection; the example's system message says what that means
		expect(results[0]).toContain('reviewed your planned tool call to Pay a supplier');
		expect(results[0]).toContain('provided feedback');
		expect(results[0]).not.toMatch(/approved|"refused"|onusReference/i);
		const system = model.requests[0].messages.find((m) => m.role === 'system');
		expect(String(system?.content)).toContain("no one decided within the approval's time limit: nothing was paid; do not call it again");
		expect(output).toContain('nothing was paid');
		// the link no longer pays
		const late = await follow(links(await approvalMail(ref)).approve);
		await sleep(3000);
		expect(await transfers(ref)).toBe(0);
		const posted = (await sandbox.requests()).filter((r) => r.method === 'POST' && String(r.path).endsWith('/bank-transfer') && (r.body as IDataObject).reference === ref);
		expect(posted).toHaveLength(0);
		expect(await approvalMails(ref)).toHaveLength(1);
		figures.push(`agent timeout: approval e-mails 1, payouts 0; Approve after it answered ${late}`);
	});
});
