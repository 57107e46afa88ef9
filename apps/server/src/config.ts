import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { z } from 'zod';

/**
 * Every knob of the server, read from the environment once. Each has a default so that
 * `npm start` on a fresh clone needs nothing set. The README lists them all.
 */
const flag = z.string().transform((v) => !['0', 'false', 'no', 'off', ''].includes(v.trim().toLowerCase()));

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(9380),
  HOST: z.string().default('0.0.0.0'),
  LECTERN_DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  REGISTER_ENABLED: flag.default(true),
  /** SSO login channels shown on the login page: a JSON list of `{channel, display_name, icon}`. */
  LOGIN_CHANNELS: z.string().default(''),
  LECTERN_SECRET_KEY: z.string().optional(),
  LECTERN_ROLE: z.enum(['api', 'worker', 'all']).default('all'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(1024 * 1024 * 1024),
  MAX_JSON_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(1024 * 1024),
  MAX_LARGE_JSON_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(16 * 1024 * 1024),
  // Comma list of browser origins allowed to call the API with credentials ("" = same origin only).
  CORS_ORIGINS: z.string().default(''),
  MAX_FILE_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(1024 * 1024 * 1024),
  MAX_FILES_PER_BATCH: z.coerce.number().int().positive().default(32),
  MAX_DOCS_PER_TENANT: z.coerce.number().int().min(0).default(0),
  LOGIN_RATE_LIMIT: z.coerce.number().int().positive().default(20),
  REDIS_URL: z.string().optional(),
  WEB_DIST_DIR: z.string().optional(),
  WORKER_CONCURRENCY: z.coerce.number().int().positive().default(5),
  MODEL_VERIFY: flag.default(true),
  BUILTIN_MODEL_DIR: z.string().optional(),
  MODEL_TIMEOUT_MS: z.coerce.number().int().positive().default(120_000),
  MODEL_VERIFY_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  MODEL_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(3),
  MODEL_RETRY_BASE_MS: z.coerce.number().int().min(0).default(1000),
  BUILTIN_MODEL_HUB: z.string().url().default('https://huggingface.co/'),
  DEFAULT_LLM_ID: z.string().default(''),
  DEFAULT_EMBD_ID: z.string().default('BAAI/bge-small-en-v1.5@Builtin'),
  DEFAULT_RERANK_ID: z.string().default(''),
  DEFAULT_ASR_ID: z.string().default(''),
  DEFAULT_IMG2TXT_ID: z.string().default(''),
  DEFAULT_TTS_ID: z.string().default(''),
  ALLOW_PRIVATE_FETCH: flag.default(false),
  // Parsed (and refused when malformed) by net/ when the composition root starts.
  LECTERN_SSRF_ALLOW: z.string().default(''),
  TAVILY_BASE_URL: z.string().url().default('https://api.tavily.com'),
  TASK_LEASE_SECONDS: z.coerce.number().positive().default(60),
  PARSE_THREADS: z.coerce.number().int().min(0).default(0),
  GRAPH_MODEL_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  CHUNK_INDEX: z.enum(['sqlite', 'postgres']).optional(),
  LECTERN_KEYWORD_POSTINGS: flag.default(false),
  BLOB_STORE: z.enum(['local', 's3']).default('local'),
  S3_ENDPOINT: z.string().url().optional(),
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: flag.optional(),
  LECTERN_CONTRACT_CHECK: flag.default(false),
  CODEEXEC_PYTHON_WARMUP: flag.default(true),
  /** Outgoing mail (team invitations); unset SMTP_HOST = no mail is sent. */
  SMTP_HOST: z.string().optional(),
  SMTP_PORT: z.coerce.number().int().min(1).max(65535).default(587),
  SMTP_SECURE: flag.optional(),
  SMTP_USER: z.string().optional(),
  SMTP_PASSWORD: z.string().optional(),
  SMTP_FROM: z.string().default('Lectern <no-reply@localhost>'),
});

export interface SmtpConfig {
  host: string;
  port: number;
  /** TLS from the start (port 465); otherwise STARTTLS when the server offers it. */
  secure: boolean;
  user: string | undefined;
  password: string | undefined;
  from: string;
}

export interface Config {
  /** Outgoing mail, or null when SMTP_HOST is not set. */
  smtp: SmtpConfig | null;
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  registerEnabled: boolean;
  /** Raw `LOGIN_CHANNELS` (parsed by `user/login/channels`, which reports a malformed value). */
  loginChannels: string;
  secretKey: string;
  role: 'api' | 'worker' | 'all';
  logLevel: string;
  /** Upload (multipart) request limit. */
  maxBodyBytes: number;
  /** JSON body limit of ordinary routes, and of the routes that carry images or long texts. */
  maxJsonBytes: number;
  maxLargeJsonBytes: number;
  /** Browser origins allowed cross-origin with credentials (CORS_ORIGINS; exact `scheme://host[:port]`). */
  corsOrigins: string[];
  maxFileBytes: number;
  maxFilesPerBatch: number;
  maxDocsPerTenant: number;
  loginRateLimit: number;
  /** Shared rate-limit windows in Redis (else in PostgreSQL when DATABASE_URL is, else memory). */
  redisUrl: string | undefined;
  webDistDir: string;
  workerConcurrency: number;
  modelVerify: boolean;
  builtinModelDir: string;
  /** Time limit of one model call (non-streamed), and of the wait for each streamed chunk. */
  modelTimeoutMs: number;
  /** Time limit of each key-check probe of set_api_key / add_llm. */
  modelVerifyTimeoutMs: number;
  /** Retries of a model call on 429/5xx/connection failures, with exponential backoff from modelRetryBaseMs. */
  modelMaxRetries: number;
  modelRetryBaseMs: number;
  /** Where the Builtin embedding model is downloaded from on first use. */
  builtinModelHub: string;
  /** System default model ids for new tenants (`<llm_name>@<factory>`, "" = none). */
  defaultModels: {
    llm_id: string;
    embd_id: string;
    rerank_id: string;
    asr_id: string;
    img2txt_id: string;
    tts_id: string;
  };
  /** Deprecated (ALLOW_PRIVATE_FETCH=1): outbound requests on a user's behalf may reach every private/local
   *  address (cloud metadata excepted). Prefer ssrfAllow. */
  allowPrivateFetch: boolean;
  /** LECTERN_SSRF_ALLOW: host names, IPs and CIDRs that outbound requests on a user's behalf may reach
   *  although they are private or local (comma list, parsed by net/policy.ts). */
  ssrfAllow: string;
  /** Base URL of the Tavily web-search API (assistants with a web-search key). */
  tavilyBaseUrl: string;
  /** A parse task whose worker stops renewing its lease for this long is claimed again. */
  taskLeaseMs: number;
  /** Worker threads that parse documents; 0 = one per core beyond the first, at most workerConcurrency. */
  parseThreads: number;
  /** Model calls one knowledge-graph, RAPTOR or mind-map job keeps in flight at once. */
  graphModelConcurrency: number;
  /** Chunk index: the embedded SQLite file, or tables in the PostgreSQL database (default with PostgreSQL). */
  chunkIndex: 'sqlite' | 'postgres';
  /** Experimental: block-max postings in the SQLite chunk index (sqlite-index.ts, SqliteIndexOptions). */
  keywordPostings: boolean;
  /** Blob store: `<dataDir>/blobs`, or an S3-compatible bucket. */
  blobStore: BlobStoreConfig;
  /** Check every JSON answer against the route contract and record the routes (tests turn it on). */
  contractCheck: boolean;
  /** Load the CodeExec Python interpreter in the background at server start (main.ts). */
  codeExecPythonWarmup: boolean;
}

export type BlobStoreConfig =
  | { kind: 'local' }
  | {
      kind: 's3';
      /** Unset = AWS's own endpoint for the region. */
      endpoint: string | undefined;
      bucket: string;
      region: string;
      /** Unset = the AWS SDK's default credential chain (environment, profile, instance role). */
      accessKeyId: string | undefined;
      secretAccessKey: string | undefined;
      /** `http://host/bucket/key` instead of `http://bucket.host/key` (local S3 servers). */
      forcePathStyle: boolean;
    };

const repoRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../..');

/** Reads the secret key from the environment, else from `<dataDir>/secret.key`, creating it once. */
function resolveSecretKey(dataDir: string, fromEnv: string | undefined): string {
  if (fromEnv && fromEnv.length > 0) return fromEnv;
  const file = path.join(dataDir, 'secret.key');
  if (fs.existsSync(file)) {
    // Only the server's user may read it, whoever created it and however.
    if ((fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
    return fs.readFileSync(file, 'utf8').trim();
  }
  const key = crypto.randomBytes(32).toString('hex');
  fs.writeFileSync(file, key, { mode: 0o600 });
  return key;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  const databaseUrl = e.DATABASE_URL && e.DATABASE_URL.length > 0 ? e.DATABASE_URL : undefined;
  const postgres = databaseUrl !== undefined && /^postgres(ql)?:\/\//.test(databaseUrl);
  if (e.CHUNK_INDEX === 'postgres' && !postgres)
    throw new Error(
      'Invalid configuration:\n  CHUNK_INDEX=postgres keeps the chunk index in PostgreSQL: set DATABASE_URL=postgres://…',
    );
  if (e.BLOB_STORE === 's3' && !e.S3_BUCKET)
    throw new Error('Invalid configuration:\n  BLOB_STORE=s3 needs S3_BUCKET');
  if (e.BLOB_STORE === 's3' && !e.S3_ACCESS_KEY_ID !== !e.S3_SECRET_ACCESS_KEY)
    throw new Error('Invalid configuration:\n  S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together');
  const dataDir = path.resolve(e.LECTERN_DATA_DIR);
  fs.mkdirSync(dataDir, { recursive: true });
  return {
    smtp: e.SMTP_HOST
      ? {
          host: e.SMTP_HOST,
          port: e.SMTP_PORT,
          secure: e.SMTP_SECURE ?? e.SMTP_PORT === 465,
          user: e.SMTP_USER,
          password: e.SMTP_PASSWORD,
          from: e.SMTP_FROM,
        }
      : null,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl,
    registerEnabled: e.REGISTER_ENABLED,
    loginChannels: e.LOGIN_CHANNELS,
    secretKey: resolveSecretKey(dataDir, e.LECTERN_SECRET_KEY),
    role: e.LECTERN_ROLE,
    logLevel: e.LOG_LEVEL,
    maxBodyBytes: e.MAX_BODY_BYTES,
    maxJsonBytes: e.MAX_JSON_BYTES,
    maxLargeJsonBytes: e.MAX_LARGE_JSON_BYTES,
    corsOrigins: e.CORS_ORIGINS.split(',')
      .map((o) => o.trim().replace(/\/+$/, ''))
      .filter((o) => o.length > 0),
    maxFileBytes: e.MAX_FILE_BYTES,
    maxFilesPerBatch: e.MAX_FILES_PER_BATCH,
    maxDocsPerTenant: e.MAX_DOCS_PER_TENANT,
    loginRateLimit: e.LOGIN_RATE_LIMIT,
    redisUrl: e.REDIS_URL && e.REDIS_URL.length > 0 ? e.REDIS_URL : undefined,
    webDistDir: path.resolve(e.WEB_DIST_DIR ?? path.join(repoRoot, 'apps/web/dist')),
    workerConcurrency: e.WORKER_CONCURRENCY,
    modelVerify: e.MODEL_VERIFY,
    builtinModelDir: path.resolve(e.BUILTIN_MODEL_DIR ?? path.join(dataDir, 'models')),
    modelTimeoutMs: e.MODEL_TIMEOUT_MS,
    modelVerifyTimeoutMs: e.MODEL_VERIFY_TIMEOUT_MS,
    modelMaxRetries: e.MODEL_MAX_RETRIES,
    modelRetryBaseMs: e.MODEL_RETRY_BASE_MS,
    builtinModelHub: e.BUILTIN_MODEL_HUB,
    defaultModels: {
      llm_id: e.DEFAULT_LLM_ID,
      embd_id: e.DEFAULT_EMBD_ID,
      rerank_id: e.DEFAULT_RERANK_ID,
      asr_id: e.DEFAULT_ASR_ID,
      img2txt_id: e.DEFAULT_IMG2TXT_ID,
      tts_id: e.DEFAULT_TTS_ID,
    },
    allowPrivateFetch: e.ALLOW_PRIVATE_FETCH,
    ssrfAllow: e.LECTERN_SSRF_ALLOW,
    tavilyBaseUrl: e.TAVILY_BASE_URL.replace(/\/+$/, ''),
    taskLeaseMs: Math.round(e.TASK_LEASE_SECONDS * 1000),
    parseThreads: e.PARSE_THREADS,
    graphModelConcurrency: e.GRAPH_MODEL_CONCURRENCY,
    chunkIndex: e.CHUNK_INDEX ?? (postgres ? 'postgres' : 'sqlite'),
    keywordPostings: e.LECTERN_KEYWORD_POSTINGS,
    blobStore:
      e.BLOB_STORE === 's3'
        ? {
            kind: 's3',
            endpoint: e.S3_ENDPOINT,
            bucket: e.S3_BUCKET!,
            region: e.S3_REGION,
            accessKeyId: e.S3_ACCESS_KEY_ID,
            secretAccessKey: e.S3_SECRET_ACCESS_KEY,
            forcePathStyle: e.S3_FORCE_PATH_STYLE ?? e.S3_ENDPOINT !== undefined,
          }
        : { kind: 'local' },
    contractCheck: e.LECTERN_CONTRACT_CHECK,
    codeExecPythonWarmup: e.CODEEXEC_PYTHON_WARMUP,
  };
}
