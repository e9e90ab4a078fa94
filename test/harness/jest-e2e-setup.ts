// Each e2e test drives a real n8n; give it room on a shared 2-core machine.
jest.setTimeout(300_000);
