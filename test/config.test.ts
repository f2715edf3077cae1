/**
 * Configuration is read once, by loadConfig, into one object the service is built from: no other module of
 * the service reads the environment, and a setting given in that object is the one the service applies.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { DEFAULT_OAUTH_SETTINGS, oauthSettings } from '../api/oauth/settings.ts';
import { loadConfig } from '../platform/config.ts';
import { runningService } from './helpers/service.ts';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

t.test('OAUTH_* and WEBHOOK_* are read into the configuration; unset ones leave the defaults', async (t) => {
  const config = loadConfig({
    OAUTH_CODE_TTL_SECONDS: '5', OAUTH_SIGNIN_PER_IP_PER_MINUTE: '7',
    WEBHOOK_POLL_MS: '50', WEBHOOK_DISABLE_AFTER_SECONDS: '3', WEBHOOK_BACKOFF_SECONDS: '0.2, 1',
  });
  t.same(config.oauth, { codeTtlSeconds: 5, rateLimits: { signInPerIp: 7 } });
  t.same(config.webhooks, { pollIntervalMs: 50, disableAfterMs: 3000, backoffMs: [200, 1000] });
  const settings = oauthSettings(config.oauth);
  t.equal(settings.accessTokenSeconds, DEFAULT_OAUTH_SETTINGS.accessTokenSeconds, 'the others keep their defaults');
  t.equal(settings.rateLimits.signInPerEmail, DEFAULT_OAUTH_SETTINGS.rateLimits.signInPerEmail);
  t.same(oauthSettings(loadConfig({}).oauth), DEFAULT_OAUTH_SETTINGS);
  t.same(loadConfig({}).webhooks, {});
});

t.test('a malformed value stops the start, naming the variable', async (t) => {
  t.throws(() => loadConfig({ OAUTH_REFRESH_GRACE_SECONDS: 'ten' }), /OAUTH_REFRESH_GRACE_SECONDS must be a non-negative integer, got ten/);
  t.throws(() => loadConfig({ WEBHOOK_CONCURRENCY: '-1' }), /WEBHOOK_CONCURRENCY must be a non-negative integer/);
  t.throws(() => loadConfig({ WEBHOOK_BACKOFF_SECONDS: '1,soon' }), /WEBHOOK_BACKOFF_SECONDS must be a comma-separated list of seconds/);
});

t.test('no module of the service reads the environment but platform/config.ts', async (t) => {
  const readers: string[] = [];
  for (const folder of ['domain', 'commands', 'eventstore', 'projections', 'api', 'eventqueue', 'cli', 'platform']) {
    for (const entry of fs.readdirSync(path.join(root, folder), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
      const file = path.relative(root, path.join(entry.parentPath, entry.name));
      if (file !== path.join('platform', 'config.ts') && fs.readFileSync(path.join(root, file), 'utf8').includes('process.env')) readers.push(file);
    }
  }
  t.same(readers, []);
});

t.test("the service applies the configuration's OAuth settings", async (t) => {
  const api = await runningService(t, { oauth: { rateLimits: { authorizePerIp: 1 } } });
  const load = () => fetch(`${api.base}/oauth/authorize?client_id=${api.clientId}&response_type=code`).then((r) => r.status);
  t.not(await load(), 429, 'the first load');
  t.equal(await load(), 429, 'the second is over the limit of one a minute');
});
