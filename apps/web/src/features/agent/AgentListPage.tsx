import { useState } from 'react';
import { Link } from 'react-router';
import { App, Avatar, Button, Card, Col, Empty, Input, Popconfirm, Row, Spin, Tag, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined, RobotOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { useCanvasList, useRemoveCanvases } from '../../api/canvas';
import { useUserInfo } from '../../api/user';
import { CreateAgentModal } from './list/CreateAgentModal';

/** `/agent`: the agents the user owns or shares with a team, search, create (blank or template), delete. */
export default function AgentListPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [keywords, setKeywords] = useState('');
  const [creating, setCreating] = useState(false);
  const list = useCanvasList(keywords);
  const remove = useRemoveCanvases();
  const { data: user } = useUserInfo();
  const canvases = list.data?.canvas ?? [];

  return (
    <div style={{ maxWidth: 1200, margin: '0 auto' }}>
      <div style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 16, marginBottom: 24 }}>
        <div style={{ flex: 1, minWidth: 240 }}>
          <Typography.Title level={1} style={{ fontSize: 24, margin: 0 }}>
            {t('agent.list.title')}
          </Typography.Title>
          <Typography.Text type="secondary">{t('agent.list.subtitle')}</Typography.Text>
        </div>
        <Input.Search
          allowClear
          placeholder={t('agent.list.search')}
          aria-label={t('agent.list.search')}
          onSearch={(v) => setKeywords(v.trim())}
          onChange={(e) => e.target.value === '' && setKeywords('')}
          style={{ width: 260 }}
        />
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setCreating(true)}
          data-testid="create-agent"
        >
          {t('agent.list.create')}
        </Button>
      </div>
      {list.isPending ? (
        <div style={{ display: 'flex', justifyContent: 'center', padding: 64 }}>
          <Spin />
        </div>
      ) : canvases.length === 0 ? (
        <Empty
          image={<RobotOutlined style={{ fontSize: 56, opacity: 0.4 }} />}
          description={keywords ? t('agent.list.noMatch', { keywords }) : t('agent.list.empty')}
        />
      ) : (
        <Row gutter={[16, 16]} role="list" aria-label={t('agent.list.title')}>
          {canvases.map((c) => (
            <Col key={c.id} xs={24} sm={12} lg={8} xl={6} role="listitem">
              <Card
                size="small"
                actions={
                  user?.id === c.tenant_id
                    ? [
                        <Popconfirm
                          key="rm"
                          title={t('agent.list.deleteConfirm', { title: c.title })}
                          onConfirm={async () => {
                            const result = await remove.mutateAsync([c.id]);
                            if (result.code !== 0) void message.error(result.message);
                          }}
                        >
                          <DeleteOutlined aria-label={t('common.delete')} />
                        </Popconfirm>,
                      ]
                    : undefined
                }
              >
                <Link to={`/agent/${c.id}`} data-testid={`agent-card-${c.title}`}>
                  <Card.Meta
                    avatar={<Avatar src={c.avatar || undefined} icon={<RobotOutlined />} shape="square" />}
                    title={c.title}
                    description={
                      <>
                        <Typography.Paragraph
                          type="secondary"
                          ellipsis={{ rows: 2 }}
                          style={{ marginBottom: 4 }}
                        >
                          {c.description || t('agent.list.noDescription')}
                        </Typography.Paragraph>
                        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                          {t('agent.list.updated', { time: dayjs(c.update_time).format('YYYY-MM-DD HH:mm') })}
                        </Typography.Text>{' '}
                        {c.permission === 'team' && <Tag>{t('agent.settings.team')}</Tag>}
                        <div
                          style={{
                            display: 'flex',
                            alignItems: 'center',
                            gap: 6,
                            marginTop: 6,
                            fontSize: 12,
                          }}
                        >
                          <Avatar
                            size={20}
                            src={c.tenant_avatar || undefined}
                            icon={<UserOutlined />}
                            alt=""
                          />
                          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                            {c.nickname}
                          </Typography.Text>
                        </div>
                      </>
                    }
                  />
                </Link>
              </Card>
            </Col>
          ))}
        </Row>
      )}
      <CreateAgentModal open={creating} onClose={() => setCreating(false)} />
    </div>
  );
}
