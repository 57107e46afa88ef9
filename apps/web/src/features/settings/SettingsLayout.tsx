import { Link, Outlet, useLocation } from 'react-router';
import { Card, Col, Menu, Row, Typography } from 'antd';
import {
  ApiOutlined,
  LockOutlined,
  TeamOutlined,
  UserOutlined,
  CloudServerOutlined,
  DeploymentUnitOutlined,
  LineChartOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

const SECTIONS = [
  { key: 'profile', icon: <UserOutlined /> },
  { key: 'password', icon: <LockOutlined /> },
  { key: 'model', icon: <CloudServerOutlined /> },
  { key: 'team', icon: <TeamOutlined /> },
  { key: 'api', icon: <ApiOutlined /> },
  { key: 'mcp', icon: <DeploymentUnitOutlined /> },
  { key: 'tracing', icon: <LineChartOutlined /> },
] as const;

export default function SettingsLayout() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const active = pathname.split('/')[2] ?? 'profile';
  return (
    <div style={{ maxWidth: 1100, margin: '0 auto' }}>
      <Typography.Title level={1} style={{ fontSize: 24 }}>
        {t('settings.title')}
      </Typography.Title>
      <Row gutter={[24, 24]}>
        <Col xs={24} md={6}>
          <nav aria-label={t('settings.title')}>
            <Menu
              mode="inline"
              selectedKeys={[active]}
              style={{ borderInlineEnd: 'none', background: 'transparent' }}
              items={SECTIONS.map((s) => ({
                key: s.key,
                icon: s.icon,
                label: <Link to={`/user-setting/${s.key}`}>{t(`settings.${s.key}`)}</Link>,
              }))}
            />
          </nav>
        </Col>
        <Col xs={24} md={18}>
          <Card>
            <Outlet />
          </Card>
        </Col>
      </Row>
    </div>
  );
}
