#!/usr/bin/env python3
"""Where each validated loop sits in its measured library: start offset
modulo 64 and the number of 64-byte lines its body spans (from objdump of
the library relinked with local labels kept), beside predicted and measured
cycles per iteration. Diagnostic for bench/validation/notes.md; needs a
validation run (build/validation) and its validation.csv.

  /usr/bin/python3 bench/validation/layout.py [--all]
"""
import csv, subprocess, re, os, sys, tempfile
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TMP = tempfile.mkdtemp()
rows=list(csv.DictReader(open(ROOT+'/bench/results/validation.csv')))
cache={}
def layout(asm, cc):
    if asm in cache: return cache[asm]
    so=os.path.join(TMP, os.path.basename(asm)+'.so')
    subprocess.run([cc,'-shared','-Wa,-L','-o',so,ROOT+'/'+asm],check=True)
    out=subprocess.run(['objdump','-d','--no-show-raw-insn',so],capture_output=True,text=True).stdout
    labels={}; insts=[]
    for l in out.splitlines():
        m=re.match(r'^([0-9a-f]+) <(.*)>:',l)
        if m: labels[m.group(2)]=int(m.group(1),16); continue
        m=re.match(r'^\s+([0-9a-f]+):\s+(.*)',l)
        if m: insts.append((int(m.group(1),16),m.group(2)))
    cache[asm]=(labels,insts); return cache[asm]
res=[]
for r in rows:
    if not r.get('lines') or not r.get('loopperf'): continue
    asm=r['asm']; first,last=map(int,r['lines'].split('-'))
    src=open(ROOT+'/'+asm).read().split('\n')
    # label: nearest label line before first
    lab=None
    for i in range(first-2,-1,-1):
        m=re.match(r'^(\.L\w+):',src[i])
        if m: lab=m.group(1); break
    labels,insts=layout(asm, r['compiler'])
    if lab not in labels: continue
    start=labels[lab]
    # end: find jump back to start
    addrs=[a for a,_ in insts]
    idx=addrs.index(start) if start in addrs else None
    if idx is None: continue
    end=None
    for j in range(idx,min(idx+200,len(insts))):
        if re.search(r'\bj\w+\s+%x\b'%start, insts[j][1]): end=insts[j+1][0]; 
    if end is None: continue
    lines64=(end-1)//64 - start//64 + 1
    lpcpi=float(r['lp_cpi']); meas=float(r['measured'])*int(r['elements'])
    res.append((r['config'],r['kernel'],start%64,end-start,lines64,lpcpi,meas))
for t in res:
    if t[5]<=2.5 or '--all' in sys.argv: print('%-34s %-16s off%2d len%3d lines%d pred %.2f meas %.2f'%t)
