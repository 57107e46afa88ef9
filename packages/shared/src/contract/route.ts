/**
 * The route contract helper. One `route({...})` entry per registered `/v1` route says how it is
 * called (method, path exactly as Fastify registers it, who may call it), what it takes (zod schemas
 * of the query string, the JSON body, or the multipart form) and what a success carries (the zod
 * schema of `data`, or the kind of stream/bytes it answers with).
 *
 * The server validates requests with these schemas (`validate(route.body, req.body)` keeps the
 * API.md §1.5 messages: declared order = missing-field order); the web client types its calls with
 * them (`z.input` of query/body, `z.output` of data); in tests every code-0 answer is checked
 * against `data`, so the data schemas describe what the server really sends.
 */
import { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Who may call a route (API.md §1.4):
 * - `login`: a session token, or an API key acting as its tenant's owner (the auth hook checks it);
 * - `public`: no credential;
 * - `apiKey`: the route itself checks `Authorization: Bearer <api key>` (legacy chat API, §10);
 * - `beta`: the route itself checks a share/embed beta token (`getsse`).
 * Every kind but `login` is registered with `config: { public: true }`; the route-contract test checks it.
 */
export type RouteAuth = 'login' | 'public' | 'apiKey' | 'beta';

/** Query and JSON-body schemas are zod objects: validate() reads their shape for the 101 message. */
export type RequestSchema = z.ZodObject;

/** A multipart request: its text fields (as the route reads them) and the file field's name. */
export interface FormSpec {
  fields: RequestSchema;
  /** Name of the (repeatable) file field, when the form carries files. */
  file?: string;
}

interface RouteBase {
  method: HttpMethod;
  /** Fastify syntax (`:param`), exactly as registered. */
  path: `/${string}`;
  auth: RouteAuth;
  query?: RequestSchema;
  body?: RequestSchema;
  form?: FormSpec;
}

/** Answers the JSON envelope `{code, message, data}`; `data` is the success payload (code 0). */
export interface JsonRouteSpec extends RouteBase {
  kind?: 'json';
  data: z.ZodType;
}

/** Answers a server-sent-event stream of envelopes whose `data` is `event` (API.md §9 framing). */
export interface SseRouteSpec extends RouteBase {
  kind: 'sse';
  /**
   * `envelope` (default): each event is `{code, message, data}` and `event` describes its `data`.
   * `bare`: each event is the JSON object `event` describes, with no envelope (agent runs, API.md
   * §13.2); an error is `{code, message, data: false}`, and `data:[DONE]` may end the stream.
   */
  framing?: 'envelope' | 'bare';
  event: z.ZodType;
  /** The one JSON envelope answered instead of the stream (`stream: false`), when the route has that mode. */
  data?: z.ZodType;
}

/** Answers raw bytes (a file, an image, audio); errors still use the JSON envelope. */
export interface BinaryRouteSpec extends RouteBase {
  kind: 'binary';
  /** The content type, or a description of how it is chosen. */
  contentType: string;
}

/** Answers a plain JSON document that is not enveloped (health maps for load balancers). */
export interface PlainRouteSpec extends RouteBase {
  kind: 'plain';
  data: z.ZodType;
}

export type RouteSpec = JsonRouteSpec | SseRouteSpec | BinaryRouteSpec | PlainRouteSpec;

/** A contract entry: the spec with its `kind` filled in (`json` when not given). */
export type RouteContract<S extends RouteSpec = RouteSpec> = S extends { kind: string }
  ? S
  : S & { kind: 'json' };

/** Declares one route. `const` keeps method and path as literal types for typed clients. */
export function route<const S extends RouteSpec>(spec: S): RouteContract<S> {
  return { kind: 'json', ...spec } as RouteContract<S>;
}

/** A group of routes (one API area), keyed by a readable name. */
export type RouteGroup = Record<string, RouteContract>;

// ---- Types derived from an entry -------------------------------------------------------------

type SchemaOf<R, K extends string> = R extends { [P in K]: infer S extends z.ZodType } ? S : never;

/** The validated query as the server sees it. */
export type QueryOf<R> = z.output<SchemaOf<R, 'query'>>;
/** The validated JSON body as the server sees it. */
export type BodyOf<R> = z.output<SchemaOf<R, 'body'>>;
/** The query a client sends. */
export type QueryInput<R> = z.input<SchemaOf<R, 'query'>>;
/** The JSON body a client sends. */
export type BodyInput<R> = z.input<SchemaOf<R, 'body'>>;
/** The multipart text fields a client sends. */
export type FormInput<R> = R extends { form: { fields: infer S extends z.ZodType } } ? z.input<S> : never;
/** `data` of a success. */
export type DataOf<R> = z.output<SchemaOf<R, 'data'>>;
/** `data` of one SSE event. */
export type EventOf<R> = z.output<SchemaOf<R, 'event'>>;

/** `{kb_id: string}` for `/v1/kb/:kb_id/tags`. */
export type PathParams<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? { [K in Name]: string } & PathParams<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? { [K in Name]: string }
    : Record<never, never>;

// ---- Request fields the route checks itself ---------------------------------------------------

/**
 * A request field whose value the route checks itself, because API.md gives it route-specific codes
 * or messages that must come in a set order (after a lookup, say, or with code 102 where validate()
 * would answer 100). Clients are typed with the real shape `T`; validate() checks presence only
 * (`required`: absent → 101), and server code sees `unknown`, so it cannot skip the check.
 */
export function routeChecked<T>(opts: { required?: boolean } = {}): z.ZodType<unknown, T> {
  // Not required: absent passes at run time too (the route answers with its own message), while
  // clients still see a required key unless the field is also marked `.optional()`.
  const runtime = opts.required ? z.custom<T>((v) => v !== undefined) : z.custom<T>().optional();
  return runtime as z.ZodType<unknown, T>;
}

/**
 * A request field validate() checks with `runtime` (a plain shape such as "an object"), while the
 * values inside are checked further by the service with its own messages. Clients are typed with
 * the real shape `T`; the server sees `runtime`'s output.
 */
export function typedAs<T>() {
  return <S extends z.ZodType>(runtime: S): z.ZodType<z.output<S>, T> =>
    runtime as unknown as z.ZodType<z.output<S>, T>;
}
