import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { configDirectory, configFiles } from '../../../src/config/paths.js';

describe('configDirectory', () => {
  it.each([
    ['MKT_CONFIG_DIR wins on every platform', { MKT_CONFIG_DIR: '/srv/mkt', XDG_CONFIG_HOME: '/x' }, 'linux', '/srv/mkt'],
    ['MKT_CONFIG_DIR wins on macOS', { MKT_CONFIG_DIR: '/srv/mkt' }, 'darwin', '/srv/mkt'],
    ['XDG_CONFIG_HOME on Linux', { XDG_CONFIG_HOME: '/home/ann/.xdg' }, 'linux', '/home/ann/.xdg/mkt'],
    ['~/.config without XDG_CONFIG_HOME', {}, 'linux', '/home/ann/.config/mkt'],
    ['a relative XDG_CONFIG_HOME is ignored, as the spec says', { XDG_CONFIG_HOME: 'rel/dir' }, 'linux', '/home/ann/.config/mkt'],
    ['XDG_CONFIG_HOME on FreeBSD too', { XDG_CONFIG_HOME: '/xdg' }, 'freebsd', '/xdg/mkt'],
    ['an empty MKT_CONFIG_DIR counts as unset', { MKT_CONFIG_DIR: '' }, 'linux', '/home/ann/.config/mkt'],
    ['~/Library/Preferences on macOS, XDG or not', { XDG_CONFIG_HOME: '/xdg' }, 'darwin', '/home/ann/Library/Preferences/mkt'],
  ] as const)('%s', (_name, env, platform, expected) => {
    expect(configDirectory(env, platform, '/home/ann')).toBe(expected);
  });

  it('uses %APPDATA%\\mkt\\Config on Windows', () => {
    expect(configDirectory({ APPDATA: 'C:\\Users\\ann\\AppData\\Roaming' }, 'win32', 'C:\\Users\\ann')).toBe(
      'C:\\Users\\ann\\AppData\\Roaming\\mkt\\Config',
    );
    expect(configDirectory({}, 'win32', 'C:\\Users\\ann')).toBe('C:\\Users\\ann\\AppData\\Roaming\\mkt\\Config');
  });

  it('makes a relative MKT_CONFIG_DIR absolute', () => {
    expect(configDirectory({ MKT_CONFIG_DIR: 'conf.d' }, 'linux', '/home/ann')).toBe(path.resolve('conf.d'));
  });
});

describe('configFiles', () => {
  it('names config.json and credentials.json in the directory', () => {
    expect(configFiles('/srv/mkt')).toEqual({
      dir: '/srv/mkt',
      settings: path.join('/srv/mkt', 'config.json'),
      credentials: path.join('/srv/mkt', 'credentials.json'),
    });
  });
});
