import { Menu, type MenuItemConstructorOptions } from 'electron';

/** The usual menus, by role, so each platform gets its native items and shortcuts. */
export function applicationMenu(appName: string): Menu {
  const mac = process.platform === 'darwin';
  const template: MenuItemConstructorOptions[] = [
    ...(mac ? [{ label: appName, role: 'appMenu' as const }] : []),
    { role: 'fileMenu' },
    { role: 'editMenu' },
    { role: 'viewMenu' },
    { role: 'windowMenu' },
    { role: 'help', submenu: [{ role: 'about' }] },
  ];
  return Menu.buildFromTemplate(template);
}
