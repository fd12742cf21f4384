"""The report's inline stylesheet (the page must work offline, so nothing is linked)."""

CSS = """
*{box-sizing:border-box}
body{margin:0;background:#f6f7f9;color:#1f2933;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:1180px;margin:0 auto;padding:24px 28px 64px}
h1{margin:0;font-size:1.9rem}h2{font-size:1.25rem;margin:0 0 12px}
.sub{color:#52606d;margin:4px 0 20px}
section{background:#fff;border:1px solid #e4e7eb;border-radius:10px;padding:18px 20px;margin:18px 0;box-shadow:0 1px 2px rgba(0,0,0,.04)}
.muted{color:#7b8794;font-size:.88rem}
code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.85em;background:#f0f2f4;border-radius:4px;padding:1px 4px}
.tiles{display:grid;grid-template-columns:repeat(auto-fit,minmax(120px,1fr));gap:10px}
.tile{background:#fff;border:1px solid #e4e7eb;border-radius:10px;padding:10px 14px}
.tile .value{font-size:1.6rem;font-weight:650}.tile .label{color:#7b8794;font-size:.8rem;text-transform:uppercase;letter-spacing:.04em}
.svg-scroll{overflow:auto;max-width:100%;max-height:80vh;border:1px solid #eef0f2;border-radius:6px}
#map-fit:checked~.svg-scroll svg.sitemap{width:100%;height:auto}
.filters{display:flex;flex-wrap:wrap;gap:14px;margin:0 0 8px;font-size:.88rem;color:#52606d}
.bug-table a{font-weight:600;text-decoration:none}.bug-table a:hover{text-decoration:underline}
svg text{font:12px ui-monospace,SFMono-Regular,Menlo,monospace;fill:#323f4b}
svg .col-label{fill:#9aa5b1;font:11px system-ui,sans-serif;text-transform:uppercase;letter-spacing:.05em}
svg .link{fill:none;stroke:#cbd2d9;stroke-width:1;opacity:.55}
svg .walk{fill:none;opacity:.85}
svg .node rect{fill:#fff;stroke:#9aa5b1;stroke-width:1.2}
svg .node.visited rect{fill:#e3f4e4;stroke:#2e7d32}
svg .node.known rect{fill:#f5f7fa;stroke:#bcccdc;stroke-dasharray:4 3}
svg .node.known text{fill:#9aa5b1}
svg .node.wall rect{fill:#fff3e0;stroke:#ef6c00}
svg .node.bug rect{fill:#fde8e8;stroke:#c62828;stroke-width:2.4}
svg .node.fixed rect{fill:#e3f2fd;stroke:#1565c0;stroke-width:2.4}
svg .step-no{text-anchor:end;fill:#52606d;font-size:10px}
svg .grid{stroke:#e4e7eb}svg .axis{fill:#7b8794;font:11px system-ui,sans-serif}
svg .line{fill:none;stroke:#2e7d32;stroke-width:2.5}svg .area{fill:#2e7d32;opacity:.10}
svg .bug-dot{fill:#c62828;stroke:#fff;stroke-width:2}
svg .session-line{stroke:#52606d;stroke-dasharray:5 4}
svg .repeat-tick{fill:#ef6c00}svg .token-bar{fill:#9aa5b1}svg .fixed-dot{fill:#1565c0;stroke:#fff;stroke-width:2}
.legend .diamond{width:9px;height:9px;background:#1565c0;transform:rotate(45deg)}
.legend{display:flex;flex-wrap:wrap;gap:14px;margin-top:8px;color:#52606d;font-size:.85rem}
.legend i{display:inline-block;vertical-align:middle;margin-right:6px}
.legend .sw{width:18px;height:12px;border-radius:3px;border:1.5px solid}
.legend .sw-visited{background:#e3f4e4;border-color:#2e7d32}.legend .sw-known{background:#f5f7fa;border:1.5px dashed #bcccdc}
.legend .sw-bug{background:#fde8e8;border-color:#c62828}.legend .sw-fixed{background:#e3f2fd;border-color:#1565c0}
.legend .sw-wall{background:#fff3e0;border-color:#ef6c00}
.legend .line{width:22px;height:3px;border-radius:2px}
.legend .dot{width:10px;height:10px;border-radius:50%;background:#c62828}
.legend .tick{width:4px;height:8px;background:#ef6c00}
.bug{border:1px solid #e4e7eb;border-left:5px solid #c62828;border-radius:8px;padding:12px 16px;margin:12px 0}
.bug.fixed{border-left-color:#1565c0}
.bug header{display:flex;gap:10px;align-items:center;flex-wrap:wrap}
.bug .kind{font-weight:650}.bug .route{font-family:ui-monospace,monospace;color:#52606d}
.status{font-size:.75rem;text-transform:uppercase;letter-spacing:.05em;border-radius:99px;padding:1px 9px;background:#e4e7eb}
.status.open{background:#fde8e8;color:#c62828}.status.fixed{background:#e3f2fd;color:#1565c0}
.status.lead{background:#fff4e5;color:#8a4b00}
.bug .message{margin:6px 0 2px;font-size:1.02rem}.bug .meta{margin:0 0 8px;color:#7b8794;font-size:.85rem}
table{border-collapse:collapse;width:100%;font-size:.88rem}
th,td{text-align:left;padding:4px 8px;border-bottom:1px solid #eef0f2;vertical-align:top}
table.evidence th{width:130px;color:#52606d;font-weight:500}
.quoted{margin-top:8px}tr.from-page th,tr.from-page td{font-style:italic}.quote{margin-top:6px}.quote-key{font-size:.78rem;color:#52606d}
.quote pre{margin:2px 0 0;white-space:pre-wrap;word-break:break-word;background:#1f2933;color:#e4e7eb;border-radius:6px;padding:8px 10px;font-size:.8rem;max-height:180px;overflow:auto}
.history ul{margin:4px 0 0;padding-left:18px}
details summary{cursor:pointer;color:#52606d;margin:8px 0}
svg .line-known{fill:none;stroke:#9aa5b1;stroke-width:2.5;stroke-dasharray:6 3}
.map-layers{display:block}.layer-toggle,.map-fit{margin:0 4px 0 12px;vertical-align:middle}
.layer-label{font-size:.85rem;color:#52606d;cursor:pointer}.layer-label i{display:inline-block;vertical-align:middle;margin-right:6px;width:22px;height:3px;border-radius:2px}
.versions ul{display:inline;margin:0;padding:0}.versions li{display:inline;margin-left:10px;list-style:none;font-size:.85rem}
.reason{font-weight:600}
.tile .value.long{font-size:1.05rem;line-height:2.3rem;overflow-wrap:anywhere}
"""
