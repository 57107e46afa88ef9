import type {
  BodyInput,
  DataOf,
  FormSpec,
  PathParams,
  QueryInput,
  RequestSchema,
  RouteContract,
} from '@lectern/shared';
import { buildUrl, request, type ApiResult, type RequestOptions } from './request';
import { postSse, type StreamOptions, type StreamOutcome } from './sse';

/**
 * Typed calls of the shared route contract (packages/shared/src/contract): method and path come from
 * the contract entry, the query and body are typed with `z.input` of its schemas and the answer's
 * `data` with `z.output` of its data schema. Keys are the contract's wire keys, sent as they are.
 */

type AllOptional<T> = object extends T ? true : false;

type ParamsPart<R extends RouteContract> = keyof PathParams<R['path']> extends never
  ? { params?: undefined }
  : { params: PathParams<R['path']> };

type QueryPart<R extends RouteContract> = R extends { query: RequestSchema }
  ? AllOptional<QueryInput<R>> extends true
    ? { query?: QueryInput<R> }
    : { query: QueryInput<R> }
  : { query?: undefined };

type BodyPart<R extends RouteContract> = R extends { body: RequestSchema }
  ? AllOptional<BodyInput<R>> extends true
    ? { body?: BodyInput<R> }
    : { body: BodyInput<R> }
  : R extends { form: FormSpec }
    ? { body: FormData }
    : { body?: undefined };

/** What a call of `R` sends: path parameters, query string, JSON body (or the multipart form). */
export type RouteInput<R extends RouteContract> = ParamsPart<R> & QueryPart<R> & BodyPart<R>;

/** What a success of `R` carries: `data`, or the bytes of a binary route (read with `responseType: 'blob'`). */
export type RouteResult<R extends RouteContract> = R extends { kind: 'binary' } ? Blob : DataOf<R>;

/** The route's path with its `:params` filled in (each value URL-encoded). */
export function routePath(path: string, params: Record<string, string> | undefined): string {
  return path.replace(/:([A-Za-z_]\w*)/g, (_m, name: string) => encodeURIComponent(params?.[name] ?? ''));
}

type CallOptions = Omit<RequestOptions, 'method' | 'data' | 'segment' | 'keepKeys'>;

/** One call of a contract route through the request client (never throws; see request.ts). */
export function callRoute<R extends RouteContract>(
  route: R,
  input: RouteInput<R>,
  options: CallOptions = {},
): Promise<ApiResult<RouteResult<R>>> {
  const { params, query, body } = input as {
    params?: Record<string, string>;
    query?: Record<string, unknown>;
    body?: Record<string, unknown> | FormData;
  };
  const path = routePath(route.path, params);
  if (route.method === 'GET') {
    return request<RouteResult<R>>(path, {
      ...options,
      method: 'GET',
      data: query,
      keepKeys: Object.keys(query ?? {}),
    });
  }
  const data = body ?? {};
  return request<RouteResult<R>>(buildUrl(path, undefined, query), {
    ...options,
    method: route.method,
    data,
    keepKeys: data instanceof FormData ? [] : Object.keys(data),
  });
}

/**
 * Streams an SSE route of the contract (API.md §9 framing). Events reach `onEvent` as envelopes:
 * code 0 events carry the route's `event` data, error events (code 500) `{answer, reference}`.
 */
export function streamRoute<R extends RouteContract & { kind: 'sse'; body: RequestSchema }>(
  route: R,
  body: BodyInput<R>,
  options: StreamOptions,
): Promise<StreamOutcome> {
  const payload = body as Record<string, unknown>;
  return postSse(route.path, payload, { ...options, keepKeys: Object.keys(payload) });
}
