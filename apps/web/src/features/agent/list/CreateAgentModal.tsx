import { useState } from 'react';
import { useNavigate } from 'react-router';
import { App, Card, Col, Form, Input, Modal, Row, Segmented, Spin, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useCanvasTemplates, useCreateCanvas } from '../../../api/canvas';
import type { CanvasTemplate } from '@lectern/shared';
import { blankDsl, localized } from './templates';
import { GraphPreview } from '../panels/GraphPreview';

/**
 * Creating an agent: a blank canvas (Begin only) or a template from the gallery, each shown with a
 * preview of its graph; then a name (required and unique per owner, SPEC §5 / API.md §13).
 */
export function CreateAgentModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const templates = useCanvasTemplates();
  const create = useCreateCanvas();
  const [chosen, setChosen] = useState<CanvasTemplate | 'blank' | null>(null);
  const [group, setGroup] = useState<string>('all');
  const [form] = Form.useForm<{ title: string }>();
  const list = templates.data ?? [];
  const groups = ['all', ...new Set(list.map((tpl) => tpl.canvas_type))];
  const shown = group === 'all' ? list : list.filter((tpl) => tpl.canvas_type === group);

  const choose = (c: CanvasTemplate | 'blank') => {
    setChosen(c);
    form.setFieldsValue({ title: c === 'blank' ? '' : localized(c.title, i18n.language) });
  };

  const submit = async ({ title }: { title: string }) => {
    if (!chosen) return;
    const dsl = chosen === 'blank' ? blankDsl() : chosen.dsl;
    const result = await create.mutateAsync({
      title: title.trim(),
      dsl,
      canvas_category: 'agent_canvas',
      description: chosen === 'blank' ? '' : localized(chosen.description, i18n.language),
      avatar: chosen === 'blank' ? '' : (chosen.avatar ?? ''),
      permission: 'me',
    });
    if (result.code !== 0 || !result.data) {
      void message.error(result.message);
      return;
    }
    onClose();
    void navigate(`/agent/${result.data.id}`);
  };

  const close = () => {
    setChosen(null);
    onClose();
  };

  return (
    <Modal
      open={open}
      width={chosen ? 480 : 980}
      title={chosen ? t('agent.create.nameTitle') : t('agent.create.title')}
      onCancel={close}
      footer={chosen ? undefined : null}
      onOk={() => form.submit()}
      okText={t('agent.create.create')}
      confirmLoading={create.isPending}
      destroyOnHidden
    >
      {chosen ? (
        <Form form={form} layout="vertical" onFinish={(v) => void submit(v)}>
          <Form.Item
            name="title"
            label={t('agent.settings.name')}
            rules={[{ required: true, whitespace: true, message: t('agent.settings.nameRequired') }]}
          >
            <Input autoFocus maxLength={255} data-testid="create-title" />
          </Form.Item>
          <Typography.Link onClick={() => setChosen(null)}>{t('agent.create.back')}</Typography.Link>
        </Form>
      ) : (
        <>
          <Segmented
            options={groups.map((g) => ({
              value: g,
              label: g === 'all' ? t('agent.create.allTemplates') : g,
            }))}
            value={group}
            onChange={(v) => setGroup(String(v))}
            style={{ marginBottom: 12 }}
          />
          {templates.isPending ? (
            <Spin />
          ) : (
            <Row
              gutter={[12, 12]}
              role="list"
              aria-label={t('agent.create.gallery')}
              style={{ maxHeight: '65vh', overflowY: 'auto' }}
            >
              <Col xs={24} sm={12} md={8} role="listitem">
                <Card
                  hoverable
                  onClick={() => choose('blank')}
                  data-testid="template-blank"
                  style={{ height: '100%' }}
                >
                  <div
                    style={{
                      height: 120,
                      display: 'flex',
                      alignItems: 'center',
                      justifyContent: 'center',
                      fontSize: 32,
                      background: '#fafafa',
                    }}
                  >
                    <PlusOutlined />
                  </div>
                  <Card.Meta
                    title={t('agent.create.blank')}
                    description={t('agent.create.blankDescription')}
                  />
                </Card>
              </Col>
              {shown.map((tpl) => {
                const title = localized(tpl.title, i18n.language);
                return (
                  <Col key={tpl.id} xs={24} sm={12} md={8} role="listitem">
                    <Card
                      hoverable
                      onClick={() => choose(tpl)}
                      data-testid={`template-${tpl.id}`}
                      cover={<GraphPreview dsl={tpl.dsl} label={t('agent.create.previewOf', { title })} />}
                      style={{ height: '100%' }}
                    >
                      <Card.Meta
                        title={title}
                        description={
                          <Typography.Paragraph ellipsis={{ rows: 3 }} type="secondary" style={{ margin: 0 }}>
                            {localized(tpl.description, i18n.language)}
                          </Typography.Paragraph>
                        }
                      />
                    </Card>
                  </Col>
                );
              })}
            </Row>
          )}
        </>
      )}
    </Modal>
  );
}
