# Build the Windows installer: the PyInstaller bundle, then Inno Setup with the version from
# pyproject.toml. Run from the repository root in PowerShell, with the venv set up as the README says
# and Inno Setup 6 installed (iscc.exe on PATH or in its default folder).
#
#   powershell -ExecutionPolicy Bypass -File installer\build-windows.ps1
$ErrorActionPreference = "Stop"
$Root = Split-Path -Parent $PSScriptRoot
$Python = Join-Path $Root ".venv\Scripts\python.exe"
$Version = & $Python -c "import tomllib; print(tomllib.load(open(r'$Root\pyproject.toml', 'rb'))['project']['version'])"
if ($LASTEXITCODE -ne 0) { throw "could not read the version from pyproject.toml" }

& $Python -m pip install -q "pyinstaller>=6.6"
& $Python -m pip install -q --no-deps -e $Root
& $Python -m PyInstaller --noconfirm --distpath "$Root\installer\out\dist" --workpath "$Root\installer\out\build" "$Root\installer\ofc-desk.spec"
if ($LASTEXITCODE -ne 0) { throw "PyInstaller failed" }

$Iscc = (Get-Command iscc.exe -ErrorAction SilentlyContinue).Source
if (-not $Iscc) { $Iscc = "${env:ProgramFiles(x86)}\Inno Setup 6\ISCC.exe" }
& $Iscc "/DAppVersion=$Version" "$Root\installer\windows.iss"
if ($LASTEXITCODE -ne 0) { throw "Inno Setup failed" }
Write-Output "installer\out\ofc-desk-$Version-windows-x64-setup.exe"
