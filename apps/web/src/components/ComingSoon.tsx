import type { ReactNode } from 'react';
import { Card, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * An honest empty state for an area that a later release fills: what will be here, and that it is
 * not there yet. `embedded` drops the card when the page already sits in one.
 */
export function ComingSoon({
  title,
  description,
  icon,
  embedded = false,
}: {
  title: string;
  description: string;
  icon?: ReactNode;
  embedded?: boolean;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const body = (
    <section style={{ textAlign: 'center', padding: '32px 16px', maxWidth: 640, margin: '0 auto' }}>
      {icon && (
        <div style={{ fontSize: 48, color: token.colorTextTertiary, marginBottom: 16 }} aria-hidden>
          {icon}
        </div>
      )}
      <Typography.Title level={2} style={{ fontSize: 20 }}>
        {title}
      </Typography.Title>
      <Typography.Paragraph>{description}</Typography.Paragraph>
      <Typography.Paragraph type="secondary">{t('common.comingSoon')}</Typography.Paragraph>
    </section>
  );
  return embedded ? body : <Card>{body}</Card>;
}
