// npm start's demo: registers, through the gateway's public REST API only, a provider and a customer
// organisation (with a project) and an active vSphere offering on the local vcsim, with prices.
// Safe to run again: what exists is found by name and reused.
//   node -r ./scripts/ts-register.js scripts/demo/register-demo.ts
// Environment: GATEWAY_URL, DEMO_API_TOKEN (a staff token), VCSIM_FRONT_URL, VCSIM_USERNAME,
// VCSIM_PASSWORD, VCSIM_CA (PEM file), DEMO_TEMPLATES (the last line of publish-templates.ts),
// DEMO_SYNC_TIMEOUT_MS (default 60000). Neither the token nor the password is ever printed.
import { readFileSync } from 'node:fs';
import { milliseconds, required } from '../vcsim/env';
import { DemoRegistration, type PublishedTemplate } from './demo-registration';
import { GatewayClient } from './gateway-client';

const log = (message: string): void => void process.stderr.write(`[demo] ${message}\n`);

function publishedTemplates(): PublishedTemplate[] {
  const parsed = JSON.parse(required('DEMO_TEMPLATES')) as { templates?: PublishedTemplate[] };
  if (!Array.isArray(parsed.templates) || parsed.templates.length === 0)
    throw new Error('DEMO_TEMPLATES holds no templates');
  return parsed.templates;
}

async function main(): Promise<void> {
  const started = Date.now();
  const api = new GatewayClient(required('GATEWAY_URL').replace(/\/+$/, ''), required('DEMO_API_TOKEN'));
  const vcenter = {
    url: required('VCSIM_FRONT_URL'),
    username: required('VCSIM_USERNAME'),
    password: required('VCSIM_PASSWORD'),
    caPem: readFileSync(required('VCSIM_CA'), 'utf8'),
  };
  const offering = await new DemoRegistration(api, log).run(
    vcenter,
    publishedTemplates(),
    milliseconds('DEMO_SYNC_TIMEOUT_MS', 60_000),
  );
  log(
    `ready in ${((Date.now() - started) / 1000).toFixed(1)} s: "${offering.name}" ` +
      `${api.base}/api/marketplace-public-offerings/${offering.uuid}/`,
  );
}

main().catch((error: unknown) => {
  log(`not registered: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
