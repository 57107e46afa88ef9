import { useState } from 'react';
import {
  FileExcelOutlined,
  FileImageOutlined,
  FileMarkdownOutlined,
  FileOutlined,
  FilePdfOutlined,
  FilePptOutlined,
  FileTextOutlined,
  FileWordOutlined,
  MailOutlined,
  SoundOutlined,
} from '@ant-design/icons';
import type { DocumentInfo } from '@lectern/shared';

const BY_SUFFIX: Record<string, React.ReactNode> = {
  pdf: <FilePdfOutlined style={{ color: '#d4380d' }} />,
  doc: <FileWordOutlined style={{ color: '#1d39c4' }} />,
  docx: <FileWordOutlined style={{ color: '#1d39c4' }} />,
  xls: <FileExcelOutlined style={{ color: '#389e0d' }} />,
  xlsx: <FileExcelOutlined style={{ color: '#389e0d' }} />,
  csv: <FileExcelOutlined style={{ color: '#389e0d' }} />,
  ppt: <FilePptOutlined style={{ color: '#d46b08' }} />,
  pptx: <FilePptOutlined style={{ color: '#d46b08' }} />,
  md: <FileMarkdownOutlined />,
  mdx: <FileMarkdownOutlined />,
  txt: <FileTextOutlined />,
  eml: <MailOutlined />,
  msg: <MailOutlined />,
};

/** The document's thumbnail when it has one, else an icon for its type. */
export function DocIcon({ doc }: { doc: Pick<DocumentInfo, 'thumbnail' | 'suffix' | 'type'> }) {
  const [broken, setBroken] = useState(false);
  const box = {
    width: 24,
    height: 24,
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    fontSize: 20,
    flex: 'none',
  } as const;
  if (doc.thumbnail && !broken) {
    return (
      <img
        src={doc.thumbnail}
        alt=""
        style={{ ...box, objectFit: 'cover', borderRadius: 2, border: '1px solid rgba(128, 128, 128, 0.35)' }}
        onError={() => setBroken(true)}
      />
    );
  }
  const icon =
    BY_SUFFIX[doc.suffix] ??
    (doc.type === 'visual' ? (
      <FileImageOutlined />
    ) : doc.type === 'aural' ? (
      <SoundOutlined />
    ) : (
      <FileOutlined />
    ));
  return (
    <span style={box} aria-hidden>
      {icon}
    </span>
  );
}
