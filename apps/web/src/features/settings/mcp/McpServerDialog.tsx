import { useEffect, useState } from 'react';
import { Alert, Button, Form, Input, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { MCP_SERVER_TYPES, type McpServer, type McpServerType } from '@lectern/shared';
import { feedback } from '../../../api/feedback';
import { alreadyShown } from '../../../api/request';
import { testMcpServer, useCreateMcpServer, useUpdateMcpServer } from '../../../api/mcp';
import { objectRule, parseObject, pretty } from './json-field';

interface Values {
  name: string;
  url: string;
  server_type: McpServerType;
  description?: string;
  headers?: string;
  variables?: string;
}

/** Add or edit one MCP server (API.md §16 create/update), with a connection test before saving. */
export function McpServerDialog({ server, onClose }: { server: McpServer | 'new'; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const create = useCreateMcpServer();
  const update = useUpdateMcpServer();
  const [testing, setTesting] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const editing = server === 'new' ? null : server;

  useEffect(() => {
    const { tools: _tools, ...variables } = editing?.variables ?? {};
    form.setFieldsValue({
      name: editing?.name ?? '',
      url: editing?.url ?? '',
      server_type: editing?.server_type ?? 'streamable-http',
      description: editing?.description ?? '',
      headers: pretty(editing?.headers),
      variables: pretty(variables),
    });
  }, [editing, form]);

  const bodyOf = (v: Values) => ({
    name: v.name.trim(),
    url: v.url.trim(),
    server_type: v.server_type,
    description: v.description ?? '',
    headers: parseObject(v.headers) ?? {},
    variables: parseObject(v.variables) ?? {},
  });

  const test = async () => {
    const v = await form.validateFields();
    setTesting(true);
    const { url, server_type, headers, variables } = bodyOf(v);
    const result = await testMcpServer({ url, server_type, headers, variables });
    setTesting(false);
    setOutcome(
      result.code === 0
        ? { ok: true, text: t('mcp.connectionOk', { count: result.data?.length ?? 0 }) }
        : { ok: false, text: result.message },
    );
  };

  const submit = async (v: Values) => {
    const body = bodyOf(v);
    const result = editing
      ? await update.mutateAsync({ mcp_id: editing.id, ...body })
      : await create.mutateAsync(body);
    if (result.code === 0) {
      feedback.success(editing ? t('message.modified') : t('message.created'));
      onClose();
    } else if (!alreadyShown(result)) feedback.error(result.message);
  };

  return (
    <Modal
      open
      title={editing ? t('mcp.editTitle') : t('mcp.addTitle')}
      onCancel={onClose}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={create.isPending || update.isPending}
      onOk={() => form.submit()}
      destroyOnHidden
      width={600}
    >
      <Form<Values> form={form} layout="vertical" onFinish={submit}>
        <Form.Item
          label={t('mcp.name')}
          name="name"
          rules={[{ required: true, whitespace: true, message: t('mcp.nameRequired') }]}
        >
          <Input maxLength={255} />
        </Form.Item>
        <Form.Item
          label={t('mcp.url')}
          name="url"
          rules={[{ required: true, type: 'url', message: t('mcp.urlRequired') }]}
        >
          <Input placeholder="https://example.com/mcp" />
        </Form.Item>
        <Form.Item label={t('mcp.type')} name="server_type" rules={[{ required: true }]}>
          <Select options={MCP_SERVER_TYPES.map((type) => ({ value: type, label: type }))} />
        </Form.Item>
        <Form.Item label={t('mcp.description')} name="description">
          <Input.TextArea autoSize={{ minRows: 1, maxRows: 4 }} />
        </Form.Item>
        <Form.Item
          label={t('mcp.headers')}
          name="headers"
          extra={t('mcp.headersHint')}
          rules={[objectRule(t('mcp.invalidJson'))]}
        >
          <Input.TextArea
            autoSize={{ minRows: 2, maxRows: 8 }}
            placeholder='{"Authorization": "Bearer ${token}"}'
          />
        </Form.Item>
        <Form.Item label={t('mcp.variables')} name="variables" rules={[objectRule(t('mcp.invalidJson'))]}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 8 }} placeholder='{"token": "…"}' />
        </Form.Item>
      </Form>
      <Button onClick={test} loading={testing}>
        {t('mcp.testConnection')}
      </Button>
      {outcome && (
        <Alert
          role="status"
          style={{ marginTop: 12 }}
          type={outcome.ok ? 'success' : 'error'}
          title={outcome.text}
        />
      )}
    </Modal>
  );
}
