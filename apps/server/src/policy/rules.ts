/**
 * The one place that answers "may this caller read / manage this row" (API.md §1.6, §12.2, §13),
 * as a table of rules per resource kind.
 *
 * - `read` covers seeing and using a resource: listing it, retrieving from it, chatting with it,
 *   and working on what it contains (documents and chunks of a usable KB are edited by everyone who
 *   may use the KB — API.md §6 `rm`: "owner/normal member of the KB creator's team").
 * - `manage` covers the owner-only operations on the resource itself: change its settings, share
 *   it, remove it, (re)link a file.
 *
 * Two questions are kept apart so that each loader can give the contract's answer in the
 * contract's order: `isLive` (soft-deleted rows, status "0", are invisible — API.md §18) and
 * `permits` (tenancy: owner tenant, or a `normal` member when the row's permission is "team").
 * `can` is both.
 */
import type { ApiError } from '../errors.js';
import { refusals, type Refusal } from './refusals.js';
import type { AccessScope } from './scope.js';

export type Action = 'read' | 'manage';

/** What the rules read of a knowledge base (`knowledgebase` row). */
export interface KbRef {
  tenant_id: string;
  created_by: string;
  /** "me" (owner tenant only) or "team" (also `normal` members). */
  permission: string | null;
  status?: string | null;
}

/** What the rules read of an assistant (`dialog` row); assistants are never team-shared. */
export interface DialogRef {
  tenant_id: string;
  status?: string | null;
}

/** What the rules read of an agent (`user_canvas` row, API.md §13): `user_id` is the owner tenant. */
export interface CanvasRef {
  user_id: string;
  permission: string | null;
  status?: string | null;
}

/** What the rules read of an MCP server (`mcp_server` row, API.md §16): never team-shared. */
export interface McpRef {
  tenant_id: string;
}

/**
 * What the rules read of a search app (`search` row, API.md §15): used by its tenant's members
 * (owner and `normal` members), changed and removed by its creator only.
 */
export interface SearchRef {
  tenant_id: string;
  created_by: string;
  status?: string | null;
}

/** What the rules read of a file-manager entry (`file` row, API.md §12). */
export interface FileRef {
  tenant_id: string;
}

export type Resource =
  /** A team (API.md §3): `id` is the owner's user id. */
  | { kind: 'tenant'; tenantId: string }
  | { kind: 'kb'; kb: KbRef }
  /** A document is governed by its knowledge base. */
  | { kind: 'document'; kb: KbRef }
  /** A chunk is governed by its knowledge base. */
  | { kind: 'chunk'; kb: KbRef }
  | { kind: 'dialog'; dialog: DialogRef }
  /**
   * A conversation is governed by its assistant's tenant, whatever the assistant's status: a
   * conversation stays readable after its assistant is removed (completion then answers
   * "Dialog not found!").
   */
  | { kind: 'conversation'; dialog: DialogRef }
  | { kind: 'canvas'; canvas: CanvasRef }
  | { kind: 'mcp'; mcp: McpRef }
  | { kind: 'search'; search: SearchRef }
  /** A file with the knowledge bases it is linked to (through file2document → document). */
  | { kind: 'file'; file: FileRef; linkedKbs: readonly KbRef[] };

export type ResourceKind = Resource['kind'];

/** Builders, so call sites read `can(scope, 'read', resource.kb(row))`. */
export const resource = {
  tenant: (tenantId: string): Resource => ({ kind: 'tenant', tenantId }),
  kb: (kb: KbRef): Resource => ({ kind: 'kb', kb }),
  document: (kb: KbRef): Resource => ({ kind: 'document', kb }),
  chunk: (kb: KbRef): Resource => ({ kind: 'chunk', kb }),
  dialog: (dialog: DialogRef): Resource => ({ kind: 'dialog', dialog }),
  conversation: (dialog: DialogRef): Resource => ({ kind: 'conversation', dialog }),
  canvas: (canvas: CanvasRef): Resource => ({ kind: 'canvas', canvas }),
  mcp: (mcp: McpRef): Resource => ({ kind: 'mcp', mcp }),
  search: (search: SearchRef): Resource => ({ kind: 'search', search }),
  file: (file: FileRef, linkedKbs: readonly KbRef[] = []): Resource => ({ kind: 'file', file, linkedKbs }),
};

const live = (status: string | null | undefined): boolean =>
  status === undefined || status === null || status === '1';

/** The caller owns the tenant (a tenant's id is its owner's user id). */
const ownsTenant = (s: AccessScope, tenantId: string): boolean => tenantId === s.userId;

/** A "team" row of a tenant where the caller is a `normal` member. */
const teamShared = (s: AccessScope, tenantId: string, permission: string | null): boolean =>
  permission === 'team' && s.teamTenantIds.includes(tenantId);

const kbReadable = (s: AccessScope, kb: KbRef): boolean =>
  ownsTenant(s, kb.tenant_id) || teamShared(s, kb.tenant_id, kb.permission);

type RuleOf<K extends ResourceKind> = {
  /** Not soft-deleted (the resource's own row, and for contained rows the container's). */
  live: (r: Extract<Resource, { kind: K }>) => boolean;
  /** Tenancy, per action. */
  permits: Record<Action, (s: AccessScope, r: Extract<Resource, { kind: K }>) => boolean>;
  /** The contract's answer when the rule says no and the route names no other (API.md §1.6). */
  refusal: Record<Action, Refusal>;
};

const RULES: { [K in ResourceKind]: RuleOf<K> } = {
  tenant: {
    live: () => true,
    permits: {
      // Its members (owner, and `normal` members) see the team; only the owner changes it.
      read: (s, r) => ownsTenant(s, r.tenantId) || s.teamTenantIds.includes(r.tenantId),
      manage: (s, r) => ownsTenant(s, r.tenantId),
    },
    refusal: { read: refusals.noAuthorization, manage: refusals.noAuthorization },
  },
  kb: {
    live: (r) => live(r.kb.status),
    permits: {
      read: (s, r) => kbReadable(s, r.kb),
      // API.md §5 update/rm: only the creator (who is always the owner tenant).
      manage: (s, r) => r.kb.created_by === s.userId,
    },
    refusal: { read: refusals.noAuthorization, manage: refusals.noAuthorization },
  },
  document: {
    live: (r) => live(r.kb.status),
    permits: { read: (s, r) => kbReadable(s, r.kb), manage: (s, r) => kbReadable(s, r.kb) },
    refusal: { read: refusals.noAuthorization, manage: refusals.noAuthorization },
  },
  chunk: {
    live: (r) => live(r.kb.status),
    permits: { read: (s, r) => kbReadable(s, r.kb), manage: (s, r) => kbReadable(s, r.kb) },
    refusal: { read: refusals.noAuthorization, manage: refusals.noAuthorization },
  },
  dialog: {
    live: (r) => live(r.dialog.status),
    permits: {
      read: (s, r) => ownsTenant(s, r.dialog.tenant_id),
      manage: (s, r) => ownsTenant(s, r.dialog.tenant_id),
    },
    refusal: { read: refusals.dialogNotFound, manage: refusals.dialogOwner },
  },
  conversation: {
    live: () => true,
    permits: {
      read: (s, r) => ownsTenant(s, r.dialog.tenant_id),
      manage: (s, r) => ownsTenant(s, r.dialog.tenant_id),
    },
    refusal: { read: refusals.conversationNotFound, manage: refusals.conversationOwner },
  },
  canvas: {
    live: (r) => live(r.canvas.status),
    permits: {
      // API.md §13 "Accessible" with the agent's permission (§1.6): the owner tenant, and `normal`
      // members of the owner's team when the agent is shared with the team.
      read: (s, r) => ownsTenant(s, r.canvas.user_id) || teamShared(s, r.canvas.user_id, r.canvas.permission),
      manage: (s, r) => ownsTenant(s, r.canvas.user_id),
    },
    refusal: { read: refusals.canvasNotFound, manage: refusals.canvasOwner },
  },
  mcp: {
    live: () => true,
    permits: {
      // API.md §16: a tenant's MCP servers are its own (the Agent runs of its canvases use them).
      read: (s, r) => ownsTenant(s, r.mcp.tenant_id),
      manage: (s, r) => ownsTenant(s, r.mcp.tenant_id),
    },
    refusal: { read: refusals.noAuthorization, manage: refusals.noAuthorization },
  },
  search: {
    live: (r) => live(r.search.status),
    permits: {
      read: (s, r) => ownsTenant(s, r.search.tenant_id) || s.teamTenantIds.includes(r.search.tenant_id),
      // API.md §15 update/rm: only the creator.
      manage: (s, r) => r.search.created_by === s.userId,
    },
    refusal: { read: refusals.searchNoPermission, manage: refusals.noAuthorization },
  },
  file: {
    live: () => true,
    permits: {
      // API.md §12.2: the owner tenant, or anyone who may use a KB the file is linked to.
      read: (s, r) =>
        ownsTenant(s, r.file.tenant_id) || r.linkedKbs.some((kb) => live(kb.status) && kbReadable(s, kb)),
      manage: (s, r) => ownsTenant(s, r.file.tenant_id),
    },
    refusal: { read: refusals.noAuthorization, manage: refusals.noAuthorization },
  },
};

/**
 * The rule of a resource, applied to it. TypeScript cannot correlate `r.kind` with the matching
 * rule's parameter type across the union, so the resource is passed through `never` here — sound,
 * because the rule is looked up by the resource's own kind.
 */
function ruleFor(r: Resource) {
  const rule = RULES[r.kind];
  return {
    live: () => rule.live(r as never),
    permits: (s: AccessScope, action: Action) => rule.permits[action](s, r as never),
  };
}

/** Not soft-deleted (API.md §18: status "0" rows are invisible to every route). */
export function isLive(r: Resource): boolean {
  return ruleFor(r).live();
}

/** Tenancy alone (owner tenant / team member by permission), ignoring soft deletion. */
export function permits(scope: AccessScope, action: Action, r: Resource): boolean {
  return ruleFor(r).permits(scope, action);
}

/** May `scope` do `action` on `r`: the row is live and tenancy allows it. */
export function can(scope: AccessScope, action: Action, r: Resource | null | undefined): boolean {
  return !!r && isLive(r) && permits(scope, action, r);
}

/** The contract's default refusal for `action` on a resource of `kind`. */
export function refusalFor(kind: ResourceKind, action: Action): ApiError {
  return RULES[kind].refusal[action]();
}

/**
 * Throws the refusal (the route's own, else the kind's default) unless `can` holds.
 * Returns nothing: loaders return the row they checked.
 */
export function authorize(scope: AccessScope, action: Action, r: Resource, refusal?: Refusal): void {
  if (!can(scope, action, r)) throw refusal ? refusal() : refusalFor(r.kind, action);
}
