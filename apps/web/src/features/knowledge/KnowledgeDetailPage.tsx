import { lazy, Suspense } from 'react';
import { Avatar, Breadcrumb, Result, Space, Spin, Tabs, Typography } from 'antd';
import {
  ApartmentOutlined,
  BranchesOutlined,
  DatabaseOutlined,
  ExperimentOutlined,
  FileTextOutlined,
  FolderOpenOutlined,
  SettingOutlined,
} from '@ant-design/icons';
import { Link, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '@lectern/shared';
import { useKbDetail } from '../../api/kb';
import { KbFilesTab } from '../files';
import { RetrievalTestingTab } from '../retrieval';

const DatasetTab = lazy(() => import('./dataset/DatasetTab'));
const ConfigurationTab = lazy(() => import('./config/ConfigurationTab'));
const GraphTab = lazy(() => import('./graph/GraphTab'));
const MindMapTab = lazy(() => import('./mindmap/MindMapTab'));

export const KB_TABS = ['dataset', 'testing', 'files', 'configuration', 'graph', 'mindmap'] as const;
export type KbTab = (typeof KB_TABS)[number];

const TAB_ICONS: Record<KbTab, React.ReactNode> = {
  dataset: <FileTextOutlined />,
  testing: <ExperimentOutlined />,
  files: <FolderOpenOutlined />,
  configuration: <SettingOutlined />,
  graph: <ApartmentOutlined />,
  mindmap: <BranchesOutlined />,
};

function tabOf(splat: string | undefined): KbTab {
  const first = (splat ?? '').split('/')[0];
  return (KB_TABS as readonly string[]).includes(first) ? (first as KbTab) : 'dataset';
}

const loading = (
  <div style={{ display: 'flex', justifyContent: 'center', padding: 48 }}>
    <Spin />
  </div>
);

/** One knowledge base: the tabs dataset, retrieval testing, files, configuration, knowledge graph and mind map. */
export default function KnowledgeDetailPage() {
  const { t } = useTranslation();
  const params = useParams();
  const kbId = params.kbId ?? '';
  const tab = tabOf(params['*']);
  const navigate = useNavigate();
  const detail = useKbDetail(kbId);
  const kb = detail.data;

  if (detail.isPending) return loading;
  if (!kb) {
    return (
      <Result
        status="404"
        title={t('knowledge.notFoundTitle')}
        // Unknown and not-yours look the same on purpose: the server does not say which it was.
        subTitle={t('knowledge.notFoundDescription')}
        extra={<Link to="/knowledge">{t('knowledge.backToList')}</Link>}
      />
    );
  }

  const content: Record<KbTab, React.ReactNode> = {
    dataset: <DatasetTab kb={kb} />,
    testing: <RetrievalTestingTab kbId={kb.id} />,
    files: <KbFilesTab kbId={kb.id} />,
    configuration: <ConfigurationTab kb={kb} />,
    graph: <GraphTab kbId={kb.id} />,
    mindmap: <MindMapTab kbId={kb.id} />,
  };

  return (
    <div style={{ maxWidth: 1400, margin: '0 auto' }}>
      <Breadcrumb
        style={{ marginBottom: 12 }}
        items={[{ title: <Link to="/knowledge">{t('knowledge.breadcrumb')}</Link> }, { title: kb.name }]}
      />
      <Space align="start" size="middle" style={{ marginBottom: 8 }}>
        <Avatar shape="square" size={56} src={kb.avatar || undefined} icon={<DatabaseOutlined />} alt="" />
        <div>
          <Typography.Title level={1} style={{ fontSize: 22, margin: 0 }}>
            {kb.name}
          </Typography.Title>
          <Typography.Text type="secondary">
            {t('knowledge.detailSummary', {
              docs: kb.doc_num,
              chunks: kb.chunk_num,
              size: formatBytes(kb.size ?? 0),
            })}
          </Typography.Text>
          {kb.description && (
            <Typography.Paragraph style={{ margin: '4px 0 0' }}>{kb.description}</Typography.Paragraph>
          )}
        </div>
      </Space>
      <Tabs
        activeKey={tab}
        onChange={(key) => navigate(`/knowledge/${kb.id}/${key}`)}
        destroyOnHidden
        items={KB_TABS.map((key) => ({
          key,
          label: t(`knowledge.tab.${key}`),
          icon: TAB_ICONS[key],
          children: <Suspense fallback={loading}>{content[key]}</Suspense>,
        }))}
      />
    </div>
  );
}
