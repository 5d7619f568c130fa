/** A second stack on other ports (infra/lib.sh's DEBUGRL_*_PORT variables) is found by every process: the addresses
 * default to those ports, and an explicit address still wins. */
import { ConfigError, loadConfig } from '../common/config';

describe('config from port variables', () => {
  it('derives the Kafka, PostgreSQL and embedded-server addresses from their ports', () => {
    const c = loadConfig({ DEBUGRL_KAFKA_PORT: '19092', DEBUGRL_PG_PORT: '15433', DEBUGRL_EMBEDDED_PORT: '18765' });
    expect(c.DEBUGRL_KAFKA_BROKERS).toEqual(['127.0.0.1:19092']);
    expect(c.DEBUGRL_DATABASE_URL).toBe('postgres://debugrl:debugrl@127.0.0.1:15433/debugrl');
    expect(c.DEBUGRL_EMBEDDED_URL).toBe('http://127.0.0.1:18765/v1');
  });

  it('lets an explicit address win over a port', () => {
    const c = loadConfig({ DEBUGRL_KAFKA_PORT: '19092', DEBUGRL_KAFKA_BROKERS: 'k:1', DEBUGRL_PG_PORT: '15433', DEBUGRL_DATABASE_URL: 'postgres://u:p@h:1/d' });
    expect(c.DEBUGRL_KAFKA_BROKERS).toEqual(['k:1']);
    expect(c.DEBUGRL_DATABASE_URL).toBe('postgres://u:p@h:1/d');
  });

  it('refuses a port and a local address that name different ports, naming both', () => {
    // What ./infra/test's environment (DEBUGRL_EMBEDDED_URL exported for the shared server) plus a test's own port gave.
    const env = { DEBUGRL_EMBEDDED_URL: 'http://127.0.0.1:8765/v1', DEBUGRL_EMBEDDED_PORT: '18765' };
    expect(() => loadConfig(env)).toThrow(/DEBUGRL_EMBEDDED_PORT: 18765 names another port than DEBUGRL_EMBEDDED_URL \("http:\/\/127.0.0.1:8765\/v1"\)/);
    expect(() => loadConfig({ DEBUGRL_PG_PORT: '15433', DEBUGRL_DATABASE_URL: 'postgres://debugrl:pw@localhost:5433/debugrl' })).toThrow(/DEBUGRL_PG_PORT: 15433 names another port/);
    // the same port twice, or an address on another host, is no conflict
    expect(loadConfig({ ...env, DEBUGRL_EMBEDDED_URL: 'http://127.0.0.1:18765/v1' }).DEBUGRL_EMBEDDED_URL).toBe('http://127.0.0.1:18765/v1');
    expect(loadConfig({ ...env, DEBUGRL_EMBEDDED_URL: 'http://gpu-node:8000/v1' }).DEBUGRL_EMBEDDED_URL).toBe('http://gpu-node:8000/v1');
  });

  it('names the variable and the derived value of a bad port', () => {
    expect(() => loadConfig({ DEBUGRL_KAFKA_PORT: 'x' })).toThrow(ConfigError);
    expect(() => loadConfig({ DEBUGRL_KAFKA_PORT: 'x' })).toThrow(/DEBUGRL_KAFKA_BROKERS[.0]*: .*\(got "127.0.0.1:x"\)/);
  });
});
