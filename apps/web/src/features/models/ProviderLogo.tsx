import { Avatar } from 'antd';
import { hueOf, initialsOf, logoSource } from './model-lists';

/** The provider's logo from the catalogue, or its initials on a colour of its own. */
export function ProviderLogo({ name, logo, size = 40 }: { name: string; logo?: string; size?: number }) {
  const src = logoSource(logo ?? '');
  if (src) return <Avatar shape="square" size={size} src={src} alt="" />;
  const hue = hueOf(name);
  return (
    <Avatar
      shape="square"
      size={size}
      aria-hidden
      style={{ background: `hsl(${hue} 55% 42%)`, color: '#fff', fontWeight: 600, flex: 'none' }}
    >
      {initialsOf(name)}
    </Avatar>
  );
}
