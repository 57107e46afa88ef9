import { Typography } from 'antd';

export function SectionHeading({ title, description }: { title: string; description: string }) {
  return (
    <>
      <Typography.Title level={2} style={{ fontSize: 20, marginTop: 0 }}>
        {title}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{description}</Typography.Paragraph>
    </>
  );
}
