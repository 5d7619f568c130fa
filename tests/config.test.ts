import { ConfigError, loadConfig } from '../common/config';

describe('config', () => {
  it('has working defaults', () => {
    const c = loadConfig({});
    expect(c.DEBUGRL_TEMPORAL_ADDRESS).toBe('127.0.0.1:7233');
    expect(c.DEBUGRL_KAFKA_BROKERS).toEqual(['127.0.0.1:9092']);
    expect(c.DEBUGRL_TASK_QUEUE).toBe('debugrl');
  });

  it('splits a broker list', () => {
    expect(loadConfig({ DEBUGRL_KAFKA_BROKERS: 'a:1, b:2' }).DEBUGRL_KAFKA_BROKERS).toEqual(['a:1', 'b:2']);
  });

  it('names the variable and the value of a bad setting', () => {
    expect(() => loadConfig({ DEBUGRL_TEMPORAL_ADDRESS: 'localhost' })).toThrow(ConfigError);
    expect(() => loadConfig({ DEBUGRL_TEMPORAL_ADDRESS: 'localhost' })).toThrow(/DEBUGRL_TEMPORAL_ADDRESS: must look like host:port \(got "localhost"\)/);
    expect(() => loadConfig({ DEBUGRL_DATABASE_URL: 'mysql://x' })).toThrow(/DEBUGRL_DATABASE_URL/);
    expect(() => loadConfig({ DEBUGRL_KAFKA_BROKERS: 'nohost' })).toThrow(/DEBUGRL_KAFKA_BROKERS/);
  });
});
