/** ExitLoop (§3.7): the runtime ends the enclosing Loop and continues with its downstream. */
import type { ComponentImpl } from './types.js';

export const exitLoop: ComponentImpl = {
  async invoke() {},
};
