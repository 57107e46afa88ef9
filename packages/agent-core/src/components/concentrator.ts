/** Concentrator (pre-0.20): a junction that passes control on; kept so older DSLs run. */
import type { ComponentImpl } from './types.js';

export const concentrator: ComponentImpl = {
  async invoke() {},
};
