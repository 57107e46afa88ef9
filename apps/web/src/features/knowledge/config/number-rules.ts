import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';

/** Rules for a number field: required (optional) and within [min, max]. */
export function numberRules(t: TFunction, opts: { min: number; max?: number; required?: string }): Rule[] {
  const rules: Rule[] = [];
  if (opts.required) rules.push({ required: true, message: opts.required });
  rules.push({
    validator: async (_, value: unknown) => {
      if (value === undefined || value === null || value === '') return;
      const n = Number(value);
      if (!Number.isFinite(n)) throw new Error(t('knowledge.notANumber'));
      if (n < opts.min || (opts.max !== undefined && n > opts.max)) {
        throw new Error(
          opts.max === undefined
            ? t('knowledge.numberAtLeast', { min: opts.min })
            : t('knowledge.numberRange', { min: opts.min, max: opts.max }),
        );
      }
    },
  });
  return rules;
}
