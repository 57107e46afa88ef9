import { EMAIL_PATTERN, DEFAULT_TIMEZONE, RetCode, type BodyOf, type contract } from '@lectern/shared';
import type { AppContext } from '../../context.js';
import type { UserTable } from '../../db/types.js';
import { ApiError, errors } from '../../http/envelope.js';
import { accessScopeOf, authorize, resource } from '../../policy/index.js';
import { hashPassword, verifyPassword } from '../../security/password.js';
import { randomHex, sha256 } from '../../security/secrets.js';
import { newId } from '../../util/ids.js';
import { creationStamps, nowMs, updateStamps } from '../../util/time.js';
import { normalizeAvatar } from './avatar.js';

type SettingBody = BodyOf<typeof contract.user.setting>;
type SetTenantInfoBody = BodyOf<typeof contract.user.setTenantInfo>;

export const DEFAULT_PARSER_IDS =
  'naive:General,qa:Q&A,resume:Resume,manual:Manual,table:Table,paper:Paper,book:Book,laws:Laws,presentation:Presentation,picture:Picture,one:One,audio:Audio,email:Email,tag:Tag';

export interface Session {
  user: UserTable;
  accessToken: string;
  headerToken: string;
}

function assertPasswordLength(password: string): void {
  if (password.length <= 8) {
    throw new ApiError(RetCode.ARGUMENT_ERROR, 'Password must be longer than 8 characters.');
  }
}

/** A fresh session secret: the raw value goes to the client, only its hash is stored. */
function newSessionSecret(ctx: AppContext) {
  const accessToken = randomHex(16);
  return { accessToken, stored: sha256(accessToken), headerToken: ctx.secrets.signSessionToken(accessToken) };
}

/**
 * Creates the user, its tenant (owner role), the membership and the file-manager root folder
 * in one transaction: either all exist afterwards or none.
 */
export async function registerUser(
  ctx: AppContext,
  input: { nickname: string; email: string; password: string },
): Promise<Session> {
  if (!ctx.config.registerEnabled) throw errors.operating('User registration is disabled!');
  const email = input.email.trim().toLowerCase();
  if (!EMAIL_PATTERN.test(email)) throw errors.operating(`Invalid email address: ${input.email}!`);
  assertPasswordLength(input.password);
  const nickname = input.nickname.trim() || email.split('@')[0];
  const db = ctx.db.kysely;
  const existing = await db.selectFrom('user').select('id').where('email', '=', email).executeTakeFirst();
  if (existing) throw errors.operating(`Email: ${input.email} has already registered!`);

  const userId = newId();
  const secret = newSessionSecret(ctx);
  const password = await hashPassword(input.password);
  const stamps = creationStamps();
  try {
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('user')
        .values({
          id: userId,
          email,
          nickname,
          password,
          access_token: secret.stored,
          avatar: null,
          language: 'English',
          color_schema: 'Bright',
          timezone: DEFAULT_TIMEZONE,
          last_login_time: stamps.create_time,
          is_authenticated: '1',
          is_active: '1',
          is_anonymous: '0',
          login_channel: 'password',
          is_superuser: 0,
          status: '1',
          ...stamps,
        })
        .execute();
      await trx
        .insertInto('tenant')
        .values({
          id: userId,
          name: `${nickname}\u2018s Kingdom`,
          // System default models come from server config (DEFAULT_*_ID).
          llm_id: ctx.config.defaultModels.llm_id,
          embd_id: ctx.config.defaultModels.embd_id,
          asr_id: ctx.config.defaultModels.asr_id,
          img2txt_id: ctx.config.defaultModels.img2txt_id,
          rerank_id: ctx.config.defaultModels.rerank_id,
          tts_id: ctx.config.defaultModels.tts_id || null,
          parser_ids: DEFAULT_PARSER_IDS,
          credit: 512,
          status: '1',
          ...stamps,
        })
        .execute();
      await trx
        .insertInto('user_tenant')
        .values({
          id: newId(),
          user_id: userId,
          tenant_id: userId,
          role: 'owner',
          invited_by: userId,
          status: '1',
          ...stamps,
        })
        .execute();
      const rootId = newId();
      await trx
        .insertInto('file')
        .values({
          id: rootId,
          parent_id: rootId,
          tenant_id: userId,
          created_by: userId,
          name: '/',
          location: '',
          size: 0,
          type: 'folder',
          source_type: '',
          ...stamps,
        })
        .execute();
    });
  } catch (err) {
    // A concurrent registration of the same email loses the unique race here.
    const again = await db.selectFrom('user').select('id').where('email', '=', email).executeTakeFirst();
    if (again) throw errors.operating(`Email: ${input.email} has already registered!`);
    throw errors.exception(
      `User registration failure, error: ${err instanceof Error ? err.message : 'unknown'}`,
    );
  }
  const user = await db.selectFrom('user').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
  return { user, accessToken: secret.accessToken, headerToken: secret.headerToken };
}

/** The one spelling of an e-mail the server keys on (lookup, rate limit): trimmed, lower case. */
export function normalizeEmail(raw: unknown): string {
  return typeof raw === 'string' ? raw.trim().toLowerCase() : '';
}

/**
 * An argon2 hash of a random password, made once: unknown accounts are checked against it so a
 * login takes as long whether or not the account exists (issue 11 item 5).
 */
let dummyHash: Promise<string> | null = null;
function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomHex(16));
  return dummyHash;
}

export async function loginUser(
  ctx: AppContext,
  input: { email?: string; password?: string },
): Promise<Session> {
  if (!input.email || input.password === undefined) throw errors.auth('Unauthorized!');
  const email = normalizeEmail(input.email);
  const db = ctx.db.kysely;
  const user = await db
    .selectFrom('user')
    .selectAll()
    .where('email', '=', email)
    .where('status', '=', '1')
    .executeTakeFirst();
  if (!user) {
    await verifyPassword(await dummyPasswordHash(), input.password);
    throw errors.auth(`Email: ${input.email} is not registered!`);
  }
  if (!(await verifyPassword(user.password, input.password))) {
    throw errors.auth('Email and password do not match!');
  }
  if (user.is_active === '0') {
    throw new ApiError(
      RetCode.FORBIDDEN,
      'This account has been disabled, please contact the administrator!',
    );
  }
  const secret = newSessionSecret(ctx);
  const now = nowMs();
  await db
    .updateTable('user')
    .set({ access_token: secret.stored, last_login_time: now, ...updateStamps(now) })
    .where('id', '=', user.id)
    .execute();
  return {
    user: { ...user, access_token: secret.stored, last_login_time: now },
    accessToken: secret.accessToken,
    headerToken: secret.headerToken,
  };
}

/** Logout rotates the stored secret so the old header token stops working everywhere. */
export async function logoutUser(ctx: AppContext, userId: string): Promise<void> {
  await ctx.db.kysely
    .updateTable('user')
    .set({ access_token: `INVALID_${randomHex(16)}`, ...updateStamps() })
    .where('id', '=', userId)
    .execute();
}

export async function updateSetting(ctx: AppContext, user: UserTable, input: SettingBody): Promise<void> {
  const changes: Partial<UserTable> = {};
  if (input.new_password !== undefined) {
    if (input.password === undefined || !(await verifyPassword(user.password, input.password))) {
      throw errors.auth('Password error!');
    }
    assertPasswordLength(input.new_password);
    changes.password = await hashPassword(input.new_password);
    // A new password ends every session (a thief's too): the stored secret rotates like on logout,
    // and the client is asked to sign in again with the new password.
    changes.access_token = `INVALID_${randomHex(16)}`;
  }
  if (input.nickname !== undefined) changes.nickname = input.nickname;
  if (input.language !== undefined) changes.language = input.language;
  if (input.color_schema !== undefined) changes.color_schema = input.color_schema;
  if (input.timezone !== undefined) changes.timezone = input.timezone;
  if (input.avatar !== undefined) changes.avatar = await normalizeAvatar(input.avatar);
  if (Object.keys(changes).length === 0) return;
  const result = await ctx.db.kysely
    .updateTable('user')
    .set({ ...changes, ...updateStamps() })
    .where('id', '=', user.id)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw errors.exception('Update failure!');
}

export async function ownedTenant(ctx: AppContext, userId: string) {
  const row = await ctx.db.kysely
    .selectFrom('tenant')
    .innerJoin('user_tenant', 'user_tenant.tenant_id', 'tenant.id')
    .selectAll('tenant')
    .select('user_tenant.role as role')
    .where('user_tenant.user_id', '=', userId)
    .where('user_tenant.role', '=', 'owner')
    .where('tenant.status', '=', '1')
    .executeTakeFirst();
  if (!row) throw errors.data('Tenant not found!');
  return row;
}

export async function setTenantInfo(
  ctx: AppContext,
  userId: string,
  input: SetTenantInfoBody,
): Promise<void> {
  const tenant = await ownedTenant(ctx, userId);
  authorize(await accessScopeOf(ctx.db.kysely, userId), 'manage', resource.tenant(input.tenant_id));
  const changes = {
    llm_id: input.llm_id,
    embd_id: input.embd_id,
    asr_id: input.asr_id,
    img2txt_id: input.img2txt_id,
    ...(input.rerank_id !== undefined ? { rerank_id: input.rerank_id } : {}),
    ...(input.tts_id !== undefined ? { tts_id: input.tts_id } : {}),
  };
  await ctx.db.kysely
    .updateTable('tenant')
    .set({ ...changes, ...updateStamps() })
    .where('id', '=', tenant.id)
    .execute();
}
