import { useTranslation } from 'react-i18next';
import { BoolField, JsonField, NumberField, PromptField, type FieldContext } from './fields';

/** Keys the editor keeps for itself or the run writes back; not edited here. */
const HIDDEN = new Set(['outputs', 'inputs', 'debug_inputs', 'custom_header']);

/**
 * Any other component (tools, data operations…): one field per param by its value's type — text
 * with the variable picker, number, switch, or JSON for lists and objects.
 */
export function GenericForm({ ctx }: { ctx: FieldContext }) {
  const { t } = useTranslation();
  const keys = Object.keys(ctx.form).filter((k) => !HIDDEN.has(k) && !k.endsWith('Enabled'));
  if (keys.length === 0) return <p>{t('agent.form.noParams')}</p>;
  return (
    <>
      {keys.map((key) => {
        const value = ctx.form[key];
        if (typeof value === 'number') return <NumberField key={key} ctx={ctx} name={key} label={key} />;
        if (typeof value === 'boolean') return <BoolField key={key} ctx={ctx} name={key} label={key} />;
        if (typeof value === 'string' || value === null || value === undefined)
          return <PromptField key={key} ctx={ctx} name={key} label={key} rows={1} />;
        return <JsonField key={key} ctx={ctx} name={key} label={key} />;
      })}
    </>
  );
}
