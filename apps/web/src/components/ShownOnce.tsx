import { Alert, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * A secret the server shows exactly once (a new API key, a new share link): the value with a copy
 * button and the warning that it cannot be shown again (the server keeps only a hash and a hint).
 */
export function ShownOnce({ value, label, testId }: { value: string; label: string; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Alert
      type="warning"
      showIcon
      title={label}
      description={
        <>
          <Typography.Paragraph
            code
            copyable={{ text: value, tooltips: [t('common.copy'), t('common.copied')] }}
            data-testid={testId}
            style={{ wordBreak: 'break-all', marginBottom: 8 }}
          >
            {value}
          </Typography.Paragraph>
          <Typography.Text strong>{t('common.shownOnce')}</Typography.Text>
        </>
      }
    />
  );
}
