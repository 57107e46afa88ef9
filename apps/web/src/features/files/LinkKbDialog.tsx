import { useState } from 'react';
import { Alert, Form, Modal, Select, Space, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import type { FileListItem } from '@lectern/shared';
import { feedback } from '../../api/feedback';
import { useLinkFiles } from '../../api/file';
import { useAllKbs } from '../../api/kb';
import { showFailure } from '../../api/request';

/**
 * "Link to knowledge base": the chosen KBs replace each file's earlier links (API.md §12.1), so a
 * single file starts with its current KBs selected. With parse on creation (on by default) the new
 * documents are queued for parsing at once.
 */
export function LinkKbDialog({ entries, onClose }: { entries: FileListItem[]; onClose: () => void }) {
  const { t } = useTranslation();
  const kbs = useAllKbs();
  const link = useLinkFiles();
  const initial = entries.length === 1 ? entries[0]!.kbs_info.map((k) => k.kb_id) : [];
  const [kbIds, setKbIds] = useState<string[]>(initial);
  const [parse, setParse] = useState(true);

  const submit = async () => {
    const result = await link.mutateAsync({ fileIds: entries.map((e) => e.id), kbIds, parse });
    if (result.code === 0) {
      feedback.success(t('files.linked'));
      onClose();
    } else {
      showFailure(result);
    }
  };

  return (
    <Modal
      open
      title={t('files.linkTitle', { count: entries.length })}
      okText={t('files.link')}
      cancelText={t('common.cancel')}
      okButtonProps={{ disabled: kbIds.length === 0 }}
      confirmLoading={link.isPending}
      onOk={() => void submit()}
      onCancel={onClose}
    >
      <Form layout="vertical">
        <Form.Item label={t('files.knowledgeBases')} htmlFor="link-kbs">
          <Select
            id="link-kbs"
            mode="multiple"
            loading={kbs.isPending}
            value={kbIds}
            onChange={setKbIds}
            placeholder={t('files.chooseKbs')}
            optionFilterProp="label"
            options={(kbs.data ?? []).map((kb) => ({ value: kb.id, label: kb.name }))}
          />
        </Form.Item>
        <Space style={{ marginBottom: 12 }}>
          <Switch id="link-parse" checked={parse} onChange={setParse} />
          <label htmlFor="link-parse">{t('files.parseOnCreation')}</label>
        </Space>
        <Alert type="info" showIcon title={t('files.linkReplaces')} />
      </Form>
    </Modal>
  );
}
