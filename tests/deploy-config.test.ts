/** The settings for running past one machine (docs/deploy.md): TLS and API keys for Temporal, SSL and SASL for Kafka,
 * PostgreSQL over SSL, and the partitions and replicas of created topics. Each validation error names its variable,
 * and each helper of common/connections.ts turns the config into the client library's options. No remote cluster
 * exists here; tests/deploy-tls.test.ts carries real connections over TLS through local proxies. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parse } from 'pg-connection-string';
import { ConfigError, loadConfig } from '../common/config';
import { kafkaClientConfig, pgConnectionString, temporalConnectionOptions, topicPartitions } from '../common/connections';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'debugrl-deploy-config-'));
const file = (name: string, text: string) => {
  const p = path.join(dir, name);
  fs.writeFileSync(p, text);
  return p;
};
const CERT = file('client.pem', 'CLIENT CERT');
const KEY = file('client.key', 'CLIENT KEY');
const CA = file('ca.pem', 'THE CA');
const MISSING = path.join(dir, 'missing.pem');

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The error loadConfig raises for env, as one string. */
function configError(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('Temporal: TLS, mTLS and API key settings', () => {
  it('rejects a certificate without its key and a key without its certificate', () => {
    expect(configError({ DEBUGRL_TEMPORAL_TLS_CERT: CERT })).toMatch(/DEBUGRL_TEMPORAL_TLS_CERT: a client certificate needs its key in DEBUGRL_TEMPORAL_TLS_KEY/);
    expect(configError({ DEBUGRL_TEMPORAL_TLS_KEY: KEY })).toMatch(/DEBUGRL_TEMPORAL_TLS_KEY: a client key needs its certificate in DEBUGRL_TEMPORAL_TLS_CERT/);
  });

  it('rejects TLS settings and an API key with TLS turned off, and never echoes the key', () => {
    const msg = configError({ DEBUGRL_TEMPORAL_TLS: 'false', DEBUGRL_TEMPORAL_API_KEY: 'sk-secret-123' });
    expect(msg).toMatch(/DEBUGRL_TEMPORAL_API_KEY: an API key is only sent over TLS, but DEBUGRL_TEMPORAL_TLS is false \(got \*\*\*\)/);
    expect(msg).not.toContain('sk-secret-123');
    expect(configError({ DEBUGRL_TEMPORAL_TLS: 'off', DEBUGRL_TEMPORAL_TLS_CA: CA })).toMatch(/DEBUGRL_TEMPORAL_TLS_CA: is set but DEBUGRL_TEMPORAL_TLS is false/);
    expect(configError({ DEBUGRL_TEMPORAL_TLS: '0', DEBUGRL_TEMPORAL_TLS_SERVER_NAME: 'x' })).toMatch(/DEBUGRL_TEMPORAL_TLS_SERVER_NAME: is set but/);
    expect(configError({ DEBUGRL_TEMPORAL_TLS: 'no', DEBUGRL_TEMPORAL_TLS_CERT: CERT, DEBUGRL_TEMPORAL_TLS_KEY: KEY })).toMatch(/DEBUGRL_TEMPORAL_TLS_CERT: is set but/);
  });

  it('rejects an on/off value that is neither', () => {
    expect(configError({ DEBUGRL_TEMPORAL_TLS: 'maybe' })).toMatch(/DEBUGRL_TEMPORAL_TLS: must be true or false \(got "maybe"\)/);
    expect(configError({ DEBUGRL_TEMPORAL_NAMESPACE: '' })).toMatch(/DEBUGRL_TEMPORAL_NAMESPACE/);
  });

  it('connects in plain text by default', () => {
    expect(temporalConnectionOptions(loadConfig({}))).toEqual({ address: '127.0.0.1:7233' });
    expect(temporalConnectionOptions(loadConfig({ DEBUGRL_TEMPORAL_TLS: 'false' }))).toEqual({ address: '127.0.0.1:7233' });
  });

  it('Temporal Cloud with an API key: the key, and TLS with the system CAs', () => {
    const c = loadConfig({ DEBUGRL_TEMPORAL_ADDRESS: 'us-east-1.aws.api.temporal.io:7233', DEBUGRL_TEMPORAL_NAMESPACE: 'debugrl.a1b2c', DEBUGRL_TEMPORAL_API_KEY: 'sk-1' });
    expect(c.DEBUGRL_TEMPORAL_NAMESPACE).toBe('debugrl.a1b2c');
    expect(temporalConnectionOptions(c)).toEqual({ address: 'us-east-1.aws.api.temporal.io:7233', apiKey: 'sk-1', tls: true });
    expect(temporalConnectionOptions(loadConfig({ DEBUGRL_TEMPORAL_TLS: 'true' }))).toEqual({ address: '127.0.0.1:7233', tls: true });
  });

  it('mTLS: the certificate pair, the CA and the server name, read from the files', () => {
    const read: string[] = [];
    const c = loadConfig({ DEBUGRL_TEMPORAL_TLS_CERT: CERT, DEBUGRL_TEMPORAL_TLS_KEY: KEY, DEBUGRL_TEMPORAL_TLS_CA: CA, DEBUGRL_TEMPORAL_TLS_SERVER_NAME: 'temporal.internal' });
    const o = temporalConnectionOptions(c, (f) => (read.push(f), fs.readFileSync(f)));
    expect(read.sort()).toEqual([CA, KEY, CERT].sort());
    expect(o.apiKey).toBeUndefined();
    const tls = o.tls as Exclude<typeof o.tls, boolean | undefined>;
    expect(Buffer.from(tls.clientCertPair!.crt).toString()).toBe('CLIENT CERT');
    expect(Buffer.from(tls.clientCertPair!.key).toString()).toBe('CLIENT KEY');
    expect(Buffer.from(tls.serverRootCACertificate!).toString()).toBe('THE CA');
    expect(tls.serverNameOverride).toBe('temporal.internal');
  });

  it('a file that cannot be read fails where it is read, naming the variable', () => {
    const c = loadConfig({ DEBUGRL_TEMPORAL_TLS_CERT: CERT, DEBUGRL_TEMPORAL_TLS_KEY: MISSING });
    expect(() => temporalConnectionOptions(c)).toThrow(ConfigError);
    expect(() => temporalConnectionOptions(c)).toThrow(`DEBUGRL_TEMPORAL_TLS_KEY: cannot read ${MISSING}: ENOENT`);
    expect(() => temporalConnectionOptions(loadConfig({ DEBUGRL_TEMPORAL_TLS_CA: dir }))).toThrow(/DEBUGRL_TEMPORAL_TLS_CA: cannot read .*EISDIR/);
  });
});

describe('Kafka: SSL, SASL, partitions and replicas', () => {
  it('rejects SASL settings that do not go together, and never echoes the password', () => {
    expect(configError({ DEBUGRL_KAFKA_SASL_MECHANISM: 'scram-sha-512' })).toMatch(
      /DEBUGRL_KAFKA_SASL_USERNAME: is required with DEBUGRL_KAFKA_SASL_MECHANISM=scram-sha-512[^]*DEBUGRL_KAFKA_SASL_PASSWORD: is required with/,
    );
    const msg = configError({ DEBUGRL_KAFKA_SASL_USERNAME: 'u', DEBUGRL_KAFKA_SASL_PASSWORD: 'hunter2' });
    expect(msg).toMatch(/DEBUGRL_KAFKA_SASL_USERNAME: is set but DEBUGRL_KAFKA_SASL_MECHANISM is not \(got "u"\)/);
    expect(msg).toMatch(/DEBUGRL_KAFKA_SASL_PASSWORD: is set but DEBUGRL_KAFKA_SASL_MECHANISM is not \(got \*\*\*\)/);
    expect(msg).not.toContain('hunter2');
    expect(configError({ DEBUGRL_KAFKA_SASL_MECHANISM: 'gssapi', DEBUGRL_KAFKA_SASL_USERNAME: 'u', DEBUGRL_KAFKA_SASL_PASSWORD: 'p' })).toMatch(/DEBUGRL_KAFKA_SASL_MECHANISM: .*"plain"\|"scram-sha-256"\|"scram-sha-512".*\(got "gssapi"\)/);
  });

  it('rejects a CA with SSL off, and partition and replica counts out of range', () => {
    expect(configError({ DEBUGRL_KAFKA_SSL: 'false', DEBUGRL_KAFKA_SSL_CA: CA })).toMatch(/DEBUGRL_KAFKA_SSL_CA: is set but DEBUGRL_KAFKA_SSL is false/);
    expect(configError({ DEBUGRL_KAFKA_PARTITIONS: '0' })).toMatch(/DEBUGRL_KAFKA_PARTITIONS: .*(>=1|at least 1)/i);
    expect(configError({ DEBUGRL_KAFKA_PARTITIONS: '65' })).toMatch(/DEBUGRL_KAFKA_PARTITIONS/);
    expect(configError({ DEBUGRL_KAFKA_REPLICATION_FACTOR: 'three' })).toMatch(/DEBUGRL_KAFKA_REPLICATION_FACTOR: .*\(got "three"\)/);
  });

  it('plain text without SASL by default', () => {
    expect(kafkaClientConfig(loadConfig({}), 'id')).toEqual({ clientId: 'id', brokers: ['127.0.0.1:9092'] });
    expect(loadConfig({}).DEBUGRL_KAFKA_REPLICATION_FACTOR).toBe(1);
  });

  it('SASL_SSL with SCRAM and a private CA', () => {
    const c = loadConfig({
      DEBUGRL_KAFKA_BROKERS: 'k1:9093,k2:9093,k3:9093',
      DEBUGRL_KAFKA_SSL_CA: CA,
      DEBUGRL_KAFKA_SASL_MECHANISM: 'scram-sha-512',
      DEBUGRL_KAFKA_SASL_USERNAME: 'debugrl',
      DEBUGRL_KAFKA_SASL_PASSWORD: 'pw',
    });
    const k = kafkaClientConfig(c, 'id');
    expect(k.brokers).toEqual(['k1:9093', 'k2:9093', 'k3:9093']);
    expect(k.sasl).toEqual({ mechanism: 'scram-sha-512', username: 'debugrl', password: 'pw' });
    expect((k.ssl as { ca: Buffer[] }).ca.map(String)).toEqual(['THE CA']);
  });

  it('SSL with the system CAs, and SASL/PLAIN', () => {
    const k = kafkaClientConfig(loadConfig({ DEBUGRL_KAFKA_SSL: 'true', DEBUGRL_KAFKA_SASL_MECHANISM: 'plain', DEBUGRL_KAFKA_SASL_USERNAME: '$ConnectionString', DEBUGRL_KAFKA_SASL_PASSWORD: 'x' }), 'id');
    expect(k.ssl).toBe(true);
    expect(k.sasl).toEqual({ mechanism: 'plain', username: '$ConnectionString', password: 'x' });
  });

  it('an unreadable CA fails naming the variable', () => {
    expect(() => kafkaClientConfig(loadConfig({ DEBUGRL_KAFKA_SSL_CA: MISSING }), 'id')).toThrow(`DEBUGRL_KAFKA_SSL_CA: cannot read ${MISSING}`);
  });

  it('DEBUGRL_KAFKA_PARTITIONS sets the multi-partition topics and leaves single-partition ones alone', () => {
    const c = loadConfig({ DEBUGRL_KAFKA_PARTITIONS: '12', DEBUGRL_KAFKA_REPLICATION_FACTOR: '3' });
    expect(c.DEBUGRL_KAFKA_REPLICATION_FACTOR).toBe(3);
    expect(topicPartitions(c, 4)).toBe(12);
    expect(topicPartitions(c, 1)).toBe(1);
    expect(topicPartitions(loadConfig({}), 4)).toBe(4);
  });
});

describe('PostgreSQL over SSL', () => {
  it('rejects an unknown sslmode, and a CA the URL cannot use or already names', () => {
    expect(configError({ DEBUGRL_DATABASE_URL: 'postgres://u:pw@h/d?sslmode=always' })).toMatch(
      /DEBUGRL_DATABASE_URL: sslmode must be one of disable, prefer, require, verify-ca, verify-full, no-verify \(got "postgres:\/\/u:\*\*\*@h\/d\?sslmode=always"\)/,
    );
    expect(configError({ DEBUGRL_DATABASE_URL: 'postgres://u:pw@h/d?sslmode=disable', DEBUGRL_DATABASE_SSL_CA: CA })).toMatch(
      /DEBUGRL_DATABASE_SSL_CA: is set but DEBUGRL_DATABASE_URL has sslmode=disable, which checks no certificate/,
    );
    expect(configError({ DEBUGRL_DATABASE_URL: `postgres://h/d?sslrootcert=${CA}`, DEBUGRL_DATABASE_SSL_CA: CA })).toMatch(/DEBUGRL_DATABASE_SSL_CA: is set but DEBUGRL_DATABASE_URL already names sslrootcert/);
  });

  it('passes the URL through, sslmode and all, when no CA variable is set', () => {
    const url = 'postgres://u:p@pg.internal:5432/debugrl?sslmode=verify-full';
    expect(pgConnectionString(loadConfig({ DEBUGRL_DATABASE_URL: url }))).toBe(url);
    // node-postgres turns sslmode=verify-full into TLS that checks the certificate and the host name.
    expect(parse(url).ssl).toEqual({});
  });

  it('adds the CA as sslrootcert, verify-full by default, and node-postgres reads it', () => {
    const s = pgConnectionString(loadConfig({ DEBUGRL_DATABASE_URL: 'postgres://u:p%40ss@pg.internal:5432/debugrl', DEBUGRL_DATABASE_SSL_CA: CA }));
    const u = new URL(s);
    expect(u.searchParams.get('sslmode')).toBe('verify-full');
    expect(u.searchParams.get('sslrootcert')).toBe(CA);
    const parsed = parse(s);
    expect(parsed).toMatchObject({ host: 'pg.internal', port: '5432', user: 'u', password: 'p@ss', database: 'debugrl' });
    expect(parsed.ssl).toEqual({ ca: 'THE CA' });
    // An explicit mode stays.
    expect(new URL(pgConnectionString(loadConfig({ DEBUGRL_DATABASE_URL: 'postgres://h/d?sslmode=verify-ca', DEBUGRL_DATABASE_SSL_CA: CA }))).searchParams.get('sslmode')).toBe('verify-ca');
  });

  it('an unreadable CA fails naming the variable', () => {
    expect(() => pgConnectionString(loadConfig({ DEBUGRL_DATABASE_SSL_CA: MISSING }))).toThrow(`DEBUGRL_DATABASE_SSL_CA: cannot read ${MISSING}`);
  });
});
