/**
 * `file/import_s3` (Lectern addition to API.md §12): copies the objects under a prefix of an
 * S3-compatible bucket into a folder of the file manager. The key below the prefix is the upload's
 * relative path, so `docs/a/b.txt` with prefix `docs/` lands as `a/b.txt` (folders created). Every
 * request the AWS SDK sends goes through the outbound guard (apps/server/src/net): the endpoint is a
 * user-given URL, so private addresses are refused unless LECTERN_SSRF_ALLOW names them. Objects
 * are streamed to temporary files and stored through the upload path, which checks names and limits.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type { AppContext } from '../../context.js';
import type { FileTable } from '../../db/types.js';
import { ApiError, errors } from '../../http/envelope.js';
import { isOutboundError, outboundPolicyOf, outboundRequest, type OutboundPolicy } from '../../net/index.js';
import { uploadPathOf } from './names.js';
import { ownFolder, type Caller } from './service.js';
import { uploadFiles } from './upload.js';

/** At most this many objects per import; a larger prefix is refused before anything is copied. */
export const S3_IMPORT_MAX_OBJECTS = 1000;
const REQUEST_TIMEOUT_MS = 60_000;

export interface S3ImportInput {
  endpoint: string;
  bucket: string;
  prefix?: string;
  access_key: string;
  secret_key: string;
  region?: string;
  parent_id?: string;
}

/** The parts of the SDK's HttpRequest the handler reads (@smithy/protocol-http is not a direct dependency). */
interface SdkRequest {
  method: string;
  protocol: string;
  hostname: string;
  port?: number;
  path: string;
  query?: Record<string, string | string[] | null>;
  headers: Record<string, string>;
  body?: unknown;
}

/** RFC 3986 escaping as the SDK signs it (encodeURIComponent leaves !'()* alone). */
const escapeUri = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function queryString(query: SdkRequest['query']): string {
  const parts: string[] = [];
  for (const key of Object.keys(query ?? {}).sort()) {
    const value = query![key];
    if (value === null || value === undefined) parts.push(escapeUri(key));
    else
      for (const v of Array.isArray(value) ? value : [value]) parts.push(`${escapeUri(key)}=${escapeUri(v)}`);
  }
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}

/** An SDK request handler that sends every request through `outboundRequest` (pinned, re-checked). */
function guardedHandler(policy: OutboundPolicy, maxBytes: number) {
  return {
    metadata: { handlerProtocol: 'http/1.1' },
    async handle(request: SdkRequest, options?: { abortSignal?: AbortSignal }) {
      const port = request.port ? `:${request.port}` : '';
      const url = `${request.protocol}//${request.hostname}${port}${request.path}${queryString(request.query)}`;
      const body =
        typeof request.body === 'string' || request.body instanceof Uint8Array ? request.body : undefined;
      const res = await outboundRequest(policy, url, {
        method: request.method,
        headers: { ...request.headers, 'accept-encoding': 'identity' },
        body,
        redirect: 'manual',
        maxBytes,
        timeoutMs: REQUEST_TIMEOUT_MS,
        signal: options?.abortSignal,
      });
      return {
        response: {
          statusCode: res.status,
          reason: res.statusText,
          headers: Object.fromEntries(res.headers.entries()),
          body: res.body ?? Readable.from([]),
        },
      };
    },
    updateHttpClientConfig() {},
    httpHandlerConfigs: () => ({}),
    destroy() {},
  };
}

/** What the caller sees when the bucket cannot be read: refusals by the guard as 101, the rest as 102. */
function s3Failure(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (isOutboundError(err)) {
    return err.refused ? errors.argument(err.message) : errors.data(`The S3 endpoint failed: ${err.message}`);
  }
  const name = err instanceof Error ? err.name : 'Error';
  const message = err instanceof Error ? err.message : String(err);
  return errors.data(`The S3 endpoint refused the request (${name}): ${message || name}`);
}

function endpointOf(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw errors.argument('The S3 endpoint must be a URL such as https://s3.example.com.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw errors.argument('The S3 endpoint must start with http:// or https://.');
  if (url.username || url.password)
    throw errors.argument('Put the keys in their own fields, not in the URL.');
  return url.origin;
}

interface Listed {
  key: string;
  size: number;
}

async function listObjects(client: S3Client, bucket: string, prefix: string): Promise<Listed[]> {
  const out: Listed[] = [];
  let token: string | undefined;
  do {
    const page = await client.send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix || undefined, ContinuationToken: token }),
    );
    for (const o of page.Contents ?? []) {
      if (!o.Key || o.Key.endsWith('/')) continue; // "folder" markers hold nothing to copy
      out.push({ key: o.Key, size: o.Size ?? 0 });
      if (out.length > S3_IMPORT_MAX_OBJECTS)
        throw errors.argument(
          `The prefix holds more than ${S3_IMPORT_MAX_OBJECTS} objects; choose a narrower prefix.`,
        );
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return out;
}

/** The relative path an object is stored under: its key without the prefix (up to the last `/` of it). */
export function relativeKey(key: string, prefix: string): string {
  const base = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/') + 1) : '';
  return key.startsWith(base) ? key.slice(base.length) : key;
}

/** What an import reports while it runs (the streamed form of the route), and how it is stopped. */
export interface S3ImportProgress {
  /** Closing the stream: stop after the object being copied (what is stored stays). */
  signal?: AbortSignal;
  onListed?: (total: number) => void;
  onObject?: (event: { key: string; file?: FileTable; reason?: string; done: number; total: number }) => void;
}

export interface S3ImportResult {
  files: FileTable[];
  skipped: { key: string; reason: string }[];
  /** The caller stopped the import before every object was handled. */
  cancelled: boolean;
}

/** Checks what can be checked before anything is read from the bucket (refusals come as one answer). */
async function opened(ctx: AppContext, caller: Caller, input: S3ImportInput) {
  const endpoint = endpointOf(input.endpoint);
  await ownFolder(ctx, caller, input.parent_id || undefined, () => errors.data("Can't find this folder!"));
  return new S3Client({
    endpoint,
    region: input.region?.trim() || 'us-east-1',
    forcePathStyle: true,
    maxAttempts: 1,
    credentials: { accessKeyId: input.access_key, secretAccessKey: input.secret_key },
    requestHandler: guardedHandler(outboundPolicyOf(ctx.config), ctx.config.maxFileBytes + 64 * 1024),
  });
}

/** The reason an object failed, as the person reads it. */
function reasonOf(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  return s3Failure(err).message;
}

/**
 * Lists the objects under the prefix (a failure here is the answer: nothing is stored), then copies
 * them one by one: each is streamed to a temporary file and stored through the upload path at once,
 * so progress means "stored". An object that cannot be read or stored is skipped with its reason.
 */
export async function importFromS3(
  ctx: AppContext,
  caller: Caller,
  input: S3ImportInput,
  progress: S3ImportProgress = {},
): Promise<S3ImportResult> {
  const client = await opened(ctx, caller, input);
  const prefix = input.prefix ?? '';
  const parentId = input.parent_id || undefined;
  const dir = path.join(ctx.config.dataDir, 'tmp', 'uploads');
  const result: S3ImportResult = { files: [], skipped: [], cancelled: false };
  try {
    const objects = await listObjects(client, input.bucket, prefix).catch((err: unknown) => {
      throw s3Failure(err);
    });
    await fs.promises.mkdir(dir, { recursive: true });
    progress.onListed?.(objects.length);
    for (const [i, o] of objects.entries()) {
      if (progress.signal?.aborted) {
        result.cancelled = true;
        break;
      }
      const outcome = await copyObject(ctx, caller, client, { ...input, parentId, dir }, o, prefix, progress);
      if ('file' in outcome) result.files.push(outcome.file);
      else result.skipped.push({ key: o.key, reason: outcome.reason });
      progress.onObject?.({ key: o.key, ...outcome, done: i + 1, total: objects.length });
    }
    return result;
  } finally {
    client.destroy();
  }
}

/** One object: checked, downloaded to a temporary file, stored; or the reason it was not. */
async function copyObject(
  ctx: AppContext,
  caller: Caller,
  client: S3Client,
  where: { bucket: string; parentId: string | undefined; dir: string },
  o: Listed,
  prefix: string,
  progress: S3ImportProgress,
): Promise<{ file: FileTable } | { reason: string }> {
  const name = relativeKey(o.key, prefix);
  try {
    uploadPathOf(name);
  } catch (err) {
    return { reason: err instanceof Error ? err.message : String(err) };
  }
  if (o.size > ctx.config.maxFileBytes) return { reason: `Larger than ${ctx.config.maxFileBytes} bytes.` };
  const tmpPath = path.join(where.dir, `${Date.now()}-${crypto.randomBytes(6).toString('hex')}`);
  try {
    const got = await client.send(new GetObjectCommand({ Bucket: where.bucket, Key: o.key }), {
      abortSignal: progress.signal,
    });
    await pipeline(got.Body as Readable, fs.createWriteStream(tmpPath), { signal: progress.signal });
    const size = (await fs.promises.stat(tmpPath)).size;
    const [file] = await uploadFiles(ctx, caller, where.parentId, [{ filename: name, tmpPath, size }]);
    return { file: file! };
  } catch (err) {
    if (!(err instanceof ApiError) && !isOutboundError(err) && !isS3Error(err) && !progress.signal?.aborted)
      throw err; // our own failure (database, disk): not the object's fault
    return { reason: progress.signal?.aborted ? 'Cancelled.' : reasonOf(err) };
  } finally {
    await fs.promises.rm(tmpPath, { force: true });
  }
}

/** An error the S3 endpoint answered (the SDK gives it `$metadata`), or a broken download stream. */
function isS3Error(err: unknown): boolean {
  return (
    err instanceof Error &&
    ('$metadata' in err || (err as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE')
  );
}
