/** Begin (§5): the request's `inputs` become outputs `{begin@<key>}`; the prologue is never emitted. */
import { applyFormInputs } from './form-inputs.js';
import type { ComponentImpl } from './types.js';

export const begin: ComponentImpl = {
  async invoke(ctx) {
    await applyFormInputs(ctx, ctx.requestInputs ?? {});
  },
};
