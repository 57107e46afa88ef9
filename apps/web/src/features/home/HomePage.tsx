import { Link } from 'react-router';
import { Alert, Button, Card, Col, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useTenantInfo } from '../../api/llm';
import { useUserInfo } from '../../api/user';
import { AREAS } from '../../components/areas';

export default function HomePage() {
  const { t } = useTranslation();
  const { data: user } = useUserInfo();
  const tenant = useTenantInfo();
  // First run: nothing can be parsed or answered before a chat and an embedding model are chosen.
  const needsModels = tenant.data !== undefined && (!tenant.data.llm_id || !tenant.data.embd_id);
  return (
    <div style={{ maxWidth: 1100, margin: '0 auto' }}>
      <Typography.Title level={1} style={{ fontSize: 28 }}>
        {t('home.greeting', { name: user?.nickname ?? '' })}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('home.intro')}</Typography.Paragraph>
      {needsModels && (
        <Alert
          type="info"
          showIcon
          role="status"
          style={{ marginBottom: 16 }}
          title={t('home.setupTitle')}
          description={t('home.setupDescription')}
          action={
            <Link to="/user-setting/model">
              <Button type="primary">{t('home.setupAction')}</Button>
            </Link>
          }
        />
      )}
      <Row gutter={[16, 16]}>
        {AREAS.map((area) => (
          <Col key={area.key} xs={24} sm={12} lg={8}>
            <Link to={area.path} aria-label={t('home.open', { name: t(`areas.${area.key}Title`) })}>
              <Card hoverable style={{ height: '100%' }}>
                <Card.Meta
                  avatar={
                    <span style={{ fontSize: 24 }} aria-hidden>
                      {area.icon}
                    </span>
                  }
                  title={t(`areas.${area.key}Title`)}
                  description={t(`areas.${area.key}Description`)}
                />
              </Card>
            </Link>
          </Col>
        ))}
      </Row>
    </div>
  );
}
