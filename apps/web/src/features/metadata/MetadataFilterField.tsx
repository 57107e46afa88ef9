import { Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { MetadataFilterBuilder } from './MetadataFilterBuilder';
import { draftOf, draftProblem } from './filter-state';

/**
 * The `meta_data_filter` field of an antd form (assistant settings, search-app settings, retrieval testing): the
 * builder plus the validation that refuses an unfinished condition with its reason.
 */
export function MetadataFilterField({ kbIds }: { kbIds: string[] }) {
  const { t } = useTranslation();
  return (
    <Form.Item
      name="meta_data_filter"
      label={t('metadata.filter')}
      tooltip={t('metadata.filterTip')}
      rules={[
        {
          validator: async (_, value: unknown) => {
            const problem = draftProblem(draftOf(value));
            if (problem) throw new Error(t(`metadata.problems.${problem}`));
          },
        },
      ]}
    >
      <MetadataFilterBuilder kbIds={kbIds} />
    </Form.Item>
  );
}
