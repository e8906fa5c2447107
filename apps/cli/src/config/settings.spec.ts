import { CliError } from '../cli-error';
import { readEnvironment } from './environment';
import { toProfileFile } from './profile-store';
import { DEFAULT_API_URL, resolveSettings } from './settings';

const file = toProfileFile(
  {
    profiles: {
      default: { api_url: 'http://profile:1', token: 'profile-token', project: 'profile-project' },
      staging: { api_url: 'http://staging:2/', token: 'staging-token' },
    },
  },
  'config.yaml',
);
const env = (values: NodeJS.ProcessEnv) => readEnvironment({ HOME: '/home/u', ...values });

describe('connection settings: flag, then environment, then profile', () => {
  it('takes the profile when nothing else is given', () => {
    expect(resolveSettings({}, env({}), file)).toMatchObject({
      apiUrl: 'http://profile:1',
      token: 'profile-token',
      project: 'profile-project',
      profileName: 'default',
    });
  });

  it('lets the environment override the profile, and a flag override both', () => {
    const e = env({
      WALDUR_API_URL: 'http://env:3',
      WALDUR_TOKEN: 'env-token',
      WALDUR_PROJECT: 'env-project',
    });
    expect(resolveSettings({}, e, file)).toMatchObject({
      apiUrl: 'http://env:3',
      token: 'env-token',
      project: 'env-project',
    });
    expect(
      resolveSettings({ apiUrl: 'http://flag:4', token: 'flag-token', project: 'flag-project' }, e, file),
    ).toMatchObject({
      apiUrl: 'http://flag:4',
      token: 'flag-token',
      project: 'flag-project',
    });
  });

  it('selects a named profile by flag or WALDUR_PROFILE, and strips a trailing slash', () => {
    expect(resolveSettings({ profile: 'staging' }, env({}), file)).toMatchObject({
      apiUrl: 'http://staging:2',
      token: 'staging-token',
    });
    expect(resolveSettings({}, env({ WALDUR_PROFILE: 'staging' }), file).profileName).toBe('staging');
  });

  it('refuses a named profile that does not exist, but not the absent default', () => {
    expect(() => resolveSettings({ profile: 'nope' }, env({}), file)).toThrow(CliError);
    expect(resolveSettings({}, env({}), { profiles: {} })).toMatchObject({
      apiUrl: DEFAULT_API_URL,
      token: undefined,
    });
  });

  it('finds the profile file under XDG_CONFIG_HOME, or as WALDUR_CLI_CONFIG says', () => {
    expect(env({}).configPath).toBe('/home/u/.config/waldur-cli/config.yaml');
    expect(env({ XDG_CONFIG_HOME: '/x' }).configPath).toBe('/x/waldur-cli/config.yaml');
    expect(env({ WALDUR_CLI_CONFIG: '/c.yaml' }).configPath).toBe('/c.yaml');
  });

  it('refuses a profile file of the wrong shape with the field named', () => {
    expect(() => toProfileFile({ profiles: { a: { token: 5 } } }, 'f.yaml')).toThrow(
      'f.yaml: profiles.a.token must be a string',
    );
  });
});
