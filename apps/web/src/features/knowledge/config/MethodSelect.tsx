import { Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { CHUNK_METHODS } from '@lectern/shared';

/** The chunk-method label in the interface language (`naive` is "General"). */
export function useMethodLabel() {
  const { t } = useTranslation();
  return (method: string) => t(`knowledge.method.${method}`, { defaultValue: method });
}

/** A chunk-method picker; `methods` narrows the choices (e.g. images only take `picture`). */
export function MethodSelect({
  value,
  onChange,
  methods = CHUNK_METHODS,
  id,
}: {
  value?: string;
  onChange?: (value: string) => void;
  methods?: readonly string[];
  id?: string;
}) {
  const label = useMethodLabel();
  return (
    <Select
      id={id}
      value={value}
      onChange={onChange}
      showSearch={{ optionFilterProp: 'label' }}
      options={methods.map((m) => ({ value: m, label: label(m) }))}
      style={{ maxWidth: 320 }}
    />
  );
}

/** The short description of a chunk method, shown under its picker. */
export function MethodDescription({ method }: { method: string | undefined }) {
  const { t } = useTranslation();
  if (!method) return null;
  return (
    <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0, maxWidth: 640 }}>
      {t(`knowledge.methodDesc.${method}`, { defaultValue: '' })}
    </Typography.Paragraph>
  );
}
