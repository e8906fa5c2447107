import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { VcsimWithFront } from '../../../test/support/vcsim-front';
import { startAdapterSuite, stopAdapterSuite, type AdapterSuite } from './support/adapter-suite';
import { startRecordingServer, type RecordingServer } from './support/recording-server';
import { dataOf, getIntegration, saveAndSettle, syncAndSettle, updateIntegration } from './support/requests';

jest.setTimeout(90_000);

const PASSWORD = 'Bound-To-Its-vCenter!42';

/**
 * Issue 20: a stored vCenter password goes only to the address it was entered for. The other
 * address here is a look-alike vCenter (it forwards to the real one and records every byte), as
 * whoever changed backend_url would run to collect the password a Login sends it.
 */
describe('credentials bound to their endpoint', () => {
  let suite: AdapterSuite;
  let sim: VcsimWithFront;
  let lookalike: RecordingServer;

  /** Whether the password reached the look-alike in any form: SOAP Login body or REST basic auth. */
  const leaked = () => {
    const seen = lookalike.received();
    const basic = Buffer.from(`${sim.username}:${PASSWORD}`).toString('base64');
    return seen.includes(PASSWORD) || seen.includes(basic);
  };

  beforeAll(async () => {
    suite = await startAdapterSuite({
      database: 'adapter_binding',
      namespace: 'adapterbinding',
      vcsim: { username: 'svc@vsphere.local', password: PASSWORD },
    });
    sim = suite.sim;
    lookalike = await startRecordingServer({ forwardTo: sim.url, caPem: sim.caPem });
  });

  afterAll(async () => {
    await lookalike?.stop();
    await stopAdapterSuite(suite ?? {});
  });

  const connected = async (offering: string) => {
    const view = await saveAndSettle(suite.client, offering, {
      backend_url: sim.url,
      username: sim.username,
      password: PASSWORD,
      ca_pem: sim.caPem,
    });
    expect(view).toMatchObject({ state: 'OK', password_set: true });
  };

  it('the look-alike answers as vCenter does, so a password sent to it would be collected', async () => {
    const offering = randomUUID();
    const view = await saveAndSettle(suite.client, offering, {
      backend_url: lookalike.url,
      username: sim.username,
      password: PASSWORD,
      ca_pem: lookalike.caPem,
    });
    expect(view).toMatchObject({ state: 'OK' });
    expect(leaked()).toBe(true); // entered for it, so sent to it: the control for the tests below
    lookalike.requests.length = 0;
  });

  it('does not send the password to a new backend_url saved without one: the change clears it', async () => {
    const offering = randomUUID();
    await connected(offering);
    const saved = dataOf(await updateIntegration(suite.client, offering, { backend_url: lookalike.url }));
    expect(saved.password_set).toBe(false);
    // The save's synchronisation, then one asked for: neither may carry the password there.
    await syncAndSettle(suite.client, offering);
    const view = await syncAndSettle(suite.client, offering);
    expect(view).toMatchObject({
      state: 'ERRED',
      password_set: false,
      error_message: 'The credentials are incomplete: password is not set.',
    });
    expect(leaked()).toBe(false);
    // Entered again, for this address: it goes there (the provider's choice).
    expect(
      await saveAndSettle(suite.client, offering, { password: PASSWORD, ca_pem: lookalike.caPem }),
    ).toMatchObject({ state: 'OK', password_set: true });
    lookalike.requests.length = 0;
  });

  it('clears the password when the username changes', async () => {
    const offering = randomUUID();
    await connected(offering);
    const view = await saveAndSettle(suite.client, offering, { username: 'someone-else@vsphere.local' });
    expect(view).toMatchObject({ password_set: false, state: 'ERRED' });
    // Saving the same values again is no change and keeps a password.
    await connected(offering);
    const same = await saveAndSettle(suite.client, offering, {
      backend_url: sim.url,
      username: sim.username,
    });
    expect(same).toMatchObject({ password_set: true, state: 'OK' });
  });

  it('clears the password when certificate checks are turned off or another CA is given', async () => {
    const offering = randomUUID();
    await connected(offering);
    // Whoever could then answer for the address (a spoofed name, a proxy) would be trusted.
    expect(dataOf(await updateIntegration(suite.client, offering, { verify_ssl: false })).password_set).toBe(
      false,
    );
    await connected(offering);
    expect(
      dataOf(await updateIntegration(suite.client, offering, { ca_pem: lookalike.caPem })).password_set,
    ).toBe(false);
    // The same CA again, or checks turned on, is no loosening and keeps a password.
    await connected(offering);
    expect(dataOf(await updateIntegration(suite.client, offering, { ca_pem: sim.caPem })).password_set).toBe(
      true,
    );
    expect(dataOf(await updateIntegration(suite.client, offering, { verify_ssl: true })).password_set).toBe(
      true,
    );
    expect(leaked()).toBe(false);
  });

  it('refuses to send a password to another host even if the stored address changed around the clear', async () => {
    const offering = randomUUID();
    await connected(offering);
    // As if something wrote the address without the service's rule (a bug, a hand edit).
    await suite.adapter.app
      .get(DataSource)
      .query(`UPDATE "vsphere"."integrations" SET "backend_url" = $2 WHERE "offering_uuid" = $1`, [
        offering,
        lookalike.url,
      ]);
    expect((await getIntegration(suite.client, offering)).password_set).toBe(false);
    const view = await syncAndSettle(suite.client, offering);
    expect(view).toMatchObject({ state: 'ERRED' });
    expect(leaked()).toBe(false);
  });
});
