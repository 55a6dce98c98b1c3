; Inno Setup 6 script for OFC Desk on Windows (64-bit).
;
; Build the one-folder bundle first, then compile this script with the version from pyproject.toml
; (installer\build-windows.ps1 does both):
;
;   pyinstaller --noconfirm --distpath installer\out\dist --workpath installer\out\build installer\ofc-desk.spec
;   iscc /DAppVersion=X.Y.Z installer\windows.iss
;
; Uninstalling removes the program, its shortcuts and everything in its folder. The dealer's data
; (the SQLite database with the audit log, and the desk's settings) is KEPT unless the person
; uninstalling answers Yes when asked; a silent uninstall always keeps it. The data is per Windows
; user: %LOCALAPPDATA%\ofc-desk (database) and HKCU\Software\OFC Desk (settings).

#ifndef AppVersion
  #error Pass the version from pyproject.toml: iscc /DAppVersion=X.Y.Z installer\windows.iss
#endif

#define AppName "OFC Desk"
#define AppExe "ofc-desk.exe"
#define BundleDir "out\dist\ofc-desk"

[Setup]
; Never change the AppId: Windows recognises upgrades and the uninstaller by it.
AppId={{0DD55EA0-FECE-4F43-8FFF-5B183A329016}
AppName={#AppName}
AppVersion={#AppVersion}
AppVerName={#AppName} {#AppVersion}
AppPublisher=OFC Desk developers
VersionInfoVersion={#AppVersion}
DefaultDirName={autopf}\{#AppName}
DefaultGroupName={#AppName}
DisableProgramGroupPage=yes
SetupIconFile=..\resources\icons\ofc-desk.ico
LicenseFile=..\LICENSE
UninstallDisplayIcon={app}\{#AppExe}
UninstallDisplayName={#AppName}
OutputDir=out
OutputBaseFilename=ofc-desk-{#AppVersion}-windows-x64-setup
Compression=lzma2/max
SolidCompression=yes
WizardStyle=modern
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
PrivilegesRequired=admin
PrivilegesRequiredOverridesAllowed=dialog
CloseApplications=yes

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"

[Files]
Source: "{#BundleDir}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{group}\{#AppName}"; Filename: "{app}\{#AppExe}"; Comment: "The dealer's desk for a live OFC table"
Name: "{group}\{#AppName} demo table"; Filename: "{app}\{#AppExe}"; Parameters: "demo"
Name: "{group}\{cm:UninstallProgram,{#AppName}}"; Filename: "{uninstallexe}"
Name: "{autodesktop}\{#AppName}"; Filename: "{app}\{#AppExe}"; Tasks: desktopicon

[Run]
Filename: "{app}\{#AppExe}"; Description: "{cm:LaunchProgram,{#AppName}}"; Flags: nowait postinstall skipifsilent

[UninstallDelete]
; Anything the program left in its own folder (never the dealer's data, which lives elsewhere).
Type: filesandordirs; Name: "{app}"

[Code]
const
  DataFolder = '{localappdata}\ofc-desk';
  SettingsKey = 'Software\OFC Desk';

procedure CurUninstallStepChanged(CurUninstallStep: TUninstallStep);
begin
  if (CurUninstallStep = usPostUninstall) and not UninstallSilent then
  begin
    if MsgBox('Also delete the OFC Desk database and settings of this Windows user?' + #13#10#13#10 +
              ExpandConstant(DataFolder) + #13#10#13#10 +
              'The database holds the audit log and every recorded session. Choose No to keep it ' +
              '(a later install finds it again).',
              mbConfirmation, MB_YESNO or MB_DEFBUTTON2) = IDYES then
    begin
      DelTree(ExpandConstant(DataFolder), True, True, True);
      RegDeleteKeyIncludingSubkeys(HKEY_CURRENT_USER, SettingsKey);
    end;
  end;
end;
