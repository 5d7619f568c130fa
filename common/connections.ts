/** How every process connects to Temporal, Kafka and PostgreSQL, from the validated config (common/config.ts): one
 * function per service, returning the client library's own options. They read the TLS files named by the config, and
 * a file that cannot be read fails here with the variable's name. `read` is injectable so tests see what is read. */
import * as fs from 'node:fs';
import type { TLSConfig } from '@temporalio/client';
import type { KafkaConfig, SASLOptions } from 'kafkajs';
import { ConfigError, sslParam, type Config } from './config';

export type ReadFile = (file: string) => Buffer;

/** Reads the file a variable names, or fails naming the variable. */
export function readNamedFile(variable: string, file: string, read: ReadFile = fs.readFileSync): Buffer {
  try {
    return read(file);
  } catch (e) {
    throw new ConfigError(`${variable}: cannot read ${file}: ${(e as Error).message}`);
  }
}

/** Checks that the file a variable names is there and readable, without keeping it. */
export function checkNamedFile(variable: string, file: string): void {
  try {
    fs.accessSync(file, fs.constants.R_OK);
  } catch (e) {
    throw new ConfigError(`${variable}: cannot read ${file}: ${(e as Error).message}`);
  }
}

/** The options both `Connection.connect` (client) and `NativeConnection.connect` (worker) take: the same `address`,
 * `tls` and `apiKey` fields. The namespace is not a connection option; pass `DEBUGRL_TEMPORAL_NAMESPACE` to the
 * Client and Worker. */
export interface TemporalConnectionOptions {
  address: string;
  tls?: TLSConfig | boolean;
  apiKey?: string;
}

export function temporalConnectionOptions(config: Config, read: ReadFile = fs.readFileSync): TemporalConnectionOptions {
  const options: TemporalConnectionOptions = { address: config.DEBUGRL_TEMPORAL_ADDRESS };
  const tls: TLSConfig = {};
  if (config.DEBUGRL_TEMPORAL_TLS_CERT && config.DEBUGRL_TEMPORAL_TLS_KEY) {
    tls.clientCertPair = {
      crt: readNamedFile('DEBUGRL_TEMPORAL_TLS_CERT', config.DEBUGRL_TEMPORAL_TLS_CERT, read),
      key: readNamedFile('DEBUGRL_TEMPORAL_TLS_KEY', config.DEBUGRL_TEMPORAL_TLS_KEY, read),
    };
  }
  if (config.DEBUGRL_TEMPORAL_TLS_CA) tls.serverRootCACertificate = readNamedFile('DEBUGRL_TEMPORAL_TLS_CA', config.DEBUGRL_TEMPORAL_TLS_CA, read);
  if (config.DEBUGRL_TEMPORAL_TLS_SERVER_NAME) tls.serverNameOverride = config.DEBUGRL_TEMPORAL_TLS_SERVER_NAME;
  if (config.DEBUGRL_TEMPORAL_API_KEY) options.apiKey = config.DEBUGRL_TEMPORAL_API_KEY;
  // config.ts refuses TLS=false with any of these, so "any of them" and "asked for" are the two ways TLS is on.
  if (Object.keys(tls).length) options.tls = tls;
  else if (config.DEBUGRL_TEMPORAL_TLS || options.apiKey) options.tls = true;
  return options;
}

/** The kafkajs client settings shared by every Kafka client of the project (activities, infra, health checks). */
export function kafkaClientConfig(config: Config, clientId: string, read: ReadFile = fs.readFileSync): KafkaConfig {
  const out: KafkaConfig = { clientId, brokers: config.DEBUGRL_KAFKA_BROKERS };
  if (config.DEBUGRL_KAFKA_SSL_CA) out.ssl = { ca: [readNamedFile('DEBUGRL_KAFKA_SSL_CA', config.DEBUGRL_KAFKA_SSL_CA, read)] };
  else if (config.DEBUGRL_KAFKA_SSL) out.ssl = true;
  const mechanism = config.DEBUGRL_KAFKA_SASL_MECHANISM;
  if (mechanism) {
    // config.ts requires both with a mechanism.
    const credentials = { username: config.DEBUGRL_KAFKA_SASL_USERNAME!, password: config.DEBUGRL_KAFKA_SASL_PASSWORD! };
    out.sasl = { mechanism, ...credentials } as SASLOptions;
  }
  return out;
}

/** The partition count infra/topics.ts creates a topic with: DEBUGRL_KAFKA_PARTITIONS for the multi-partition
 * topics, one for a topic that infra/topics.json gives one (its readers rely on one total order). */
export function topicPartitions(config: Config, fromFile: number): number {
  return fromFile === 1 ? 1 : (config.DEBUGRL_KAFKA_PARTITIONS ?? fromFile);
}

/** The connection string for node-postgres (`new Pool({ connectionString })`, `new Client(...)`). TLS is what the URL's
 * sslmode says (node-postgres reads sslmode, sslrootcert, sslcert and sslkey itself). DEBUGRL_DATABASE_SSL_CA is
 * added as sslrootcert, with sslmode verify-full unless the URL names another mode: node-postgres lets the URL's ssl
 * parameters override an `ssl` option, so the URL is the one place to put them. */
export function pgConnectionString(config: Config): string {
  const ca = config.DEBUGRL_DATABASE_SSL_CA;
  if (!ca) return config.DEBUGRL_DATABASE_URL;
  checkNamedFile('DEBUGRL_DATABASE_SSL_CA', ca);
  const url = new URL(config.DEBUGRL_DATABASE_URL);
  if (sslParam(config.DEBUGRL_DATABASE_URL, 'sslmode') === null) url.searchParams.set('sslmode', 'verify-full');
  url.searchParams.set('sslrootcert', ca);
  return url.toString();
}
