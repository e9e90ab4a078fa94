/** The environment every n8n process of the harness starts with. */

const ENCRYPTION_KEY = 'payonus-e2e-encryption-key-not-secret';

/** This process's environment minus anything that would configure n8n or jest. */
function baseEnv(): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [key, value] of Object.entries(process.env)) {
		// keep the run hermetic: nothing n8n-related or jest-related leaks in
		if (/^(N8N_|DB_|QUEUE_|EXECUTIONS_|WEBHOOK_URL|GENERIC_|JEST_|NODE_OPTIONS|NODE_ENV|OFFLOAD_)/.test(key)) continue;
		env[key] = value;
	}
	return env;
}

/** An n8n on `port`: quiet and offline, public API and community packages on, every execution kept (the database is added by the caller). */
export function n8nEnv(port: number, baseUrl: string): NodeJS.ProcessEnv {
	return {
		...baseEnv(),
		NODE_ENV: 'production',
		N8N_ENCRYPTION_KEY: ENCRYPTION_KEY,
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		N8N_PORT: String(port),
		N8N_EDITOR_BASE_URL: `${baseUrl}/`,
		WEBHOOK_URL: `${baseUrl}/`,
		N8N_WEBHOOK_URL: `${baseUrl}/`,
		N8N_SECURE_COOKIE: 'false',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_DYNAMIC_BANNERS_ENABLED: 'false',
		N8N_VERIFIED_PACKAGES_ENABLED: 'false',
		N8N_REINSTALL_MISSING_PACKAGES: 'false',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		N8N_LICENSE_AUTO_RENEW_ENABLED: 'false',
		N8N_PUBLIC_API_DISABLED: 'false',
		N8N_PUBLIC_API_SWAGGERUI_DISABLED: 'true',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_RUNNERS_MODE: 'internal',
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		N8N_LOG_LEVEL: process.env.PAYONUS_N8N_LOG_LEVEL ?? 'info',
		N8N_LOG_OUTPUT: 'console',
		EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'all',
		EXECUTIONS_DATA_SAVE_ON_ERROR: 'all',
		EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS: 'true',
		EXECUTIONS_DATA_PRUNE: 'false',
		QUEUE_HEALTH_CHECK_ACTIVE: 'false',
	};
}
