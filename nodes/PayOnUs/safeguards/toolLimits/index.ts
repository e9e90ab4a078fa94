/**
 * Spending limits when the node runs as an AI agent's tool.
 *
 * n8n turns a `usableAsTool` node into a second node type named
 * `<name>Tool` (here `n8n-nodes-payonus.payOnUsTool`, see n8n's
 * tool-generation/ai-tools.js) and shows parameters whose displayOptions say
 * `'@tool': [true]` only on that type (n8n-workflow node-helpers: `@tool` is
 * `nodeTypeDescription.name.endsWith('Tool')`). At run time the node knows
 * by its type: `this.getNode().type.endsWith('Tool')`.
 *
 * As a tool, money-moving operations are refused unless the builder turns
 * them on; then every money-moving request is checked, just before it would
 * be sent, against the limits OF ITS CURRENCY (docs/reliability.md, rule 6:
 * a limit names its currency): the maximum amount per call, the maximum
 * total per execution, the optional maximum total per time window (for this
 * node in this workflow); a currency without limits is refused. Then the
 * optional beneficiary allow-list.
 *
 * The limits are set in Spending Limits, one row per currency
 * (toolSpendingLimits), read into ToolLimits (readToolLimits), which is all
 * checkAsk knows.
 *
 * Totals are scoped to the workflow and the node (never one bucket for the
 * process). n8n runs a tool called through the MCP Server Trigger without an
 * execution id of its own: a total per execution cannot be counted for such
 * a call, so it is refused unless the builder sets a window total (fail
 * closed). Both totals are kept in this n8n process's memory: with several
 * processes (queue mode, multi-main) each counts the calls it runs, which
 * the parameters' descriptions say. Workflow static data is not used: n8n
 * saves it after an execution, whole, last write wins, so two processes (or
 * two concurrent calls) would lose each other's counts. A refusal is an output item the agent reads
 * (`refused: true`, what was asked, which limit, `nothingSent: true`), never
 * an error. Read-only operations are not affected.
 *
 * limits.ts      what a limit is (per currency), its defaults and names
 * properties.ts  the tool's parameters
 * read.ts        reading them from the node (readToolLimits)
 * totals.ts      the process-wide totals, per execution and per window
 * guard.ts       the check of one request (checkAsk)
 * client.ts      the operation with a guarding client (limitedOperation)
 */

export { CURRENCY_LIMIT_DEFAULTS, CURRENCY_LIMIT_NAMES, type CurrencyLimit, isToolNode, limitOf, TOOL_DEFAULTS, type ToolLimits } from './limits';
export { toolLimitProperties } from './properties';
export { parseBeneficiaries, readSpendingLimits, readToolLimits } from './read';
export { EXECUTION_IDLE_MS, EXECUTION_TOTALS, ExecutionTotals, MAX_TRACKED_EXECUTIONS, MAX_WINDOW_ENTRIES, WINDOW_TOTALS, WindowTotals } from './totals';
export { checkAsk, type Refusal, type Spent, type ToolScope } from './guard';
export { limitedOperation, ToolRefusal } from './client';
