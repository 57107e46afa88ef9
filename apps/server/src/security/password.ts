import { hash, verify } from '@node-rs/argon2';

// Algorithm.Argon2id of the library's const enum (not importable under isolatedModules).
const ARGON2ID = 2;

/** argon2id with the library's recommended cost; the hash string carries its own parameters. */
export function hashPassword(plain: string): Promise<string> {
  return hash(plain, { algorithm: ARGON2ID });
}

export async function verifyPassword(stored: string, plain: string): Promise<boolean> {
  try {
    return await verify(stored, plain);
  } catch {
    return false;
  }
}
