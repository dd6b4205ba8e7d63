import numpy as np, lssvm_analysis as la, time
from lssvm_analysis.analysis.measures import backward_error
rng=np.random.default_rng(0)
X=rng.uniform(-3,3,(60,1)); y=np.sinc(X[:,0])+0.05*rng.normal(size=60)
for pr in ['float32','float64','longdouble']:
  for up in ['cholesky','bordered-inverse']:
    f=la.fit('rr-lssvr',X,y,precision=pr,C=10,sigma2=1,n_support=15,tol=0,update=up)
    A,b,un=la.get_solver('rr-lssvr').system(X,y,f)
    be=backward_error(A,f.diagnostics['solution'],b).value
    u=la.get_precision(pr).unit_roundoff
    J=f.diagnostics['objective']; B=f.diagnostics['objective_bound']
    print(pr,up,len(f.support_), be/(16*u), '%.2e'%np.linalg.cond(np.asarray(A,float)), np.max(np.diff(J)/(B[1:]+B[:-1])), f.diagnostics['n_guard_skips'], f.diagnostics['skipped'][:3])
# greedy vs random
def sinc(n, rng):
    X=rng.uniform(-10,10,(n,1)); return X, np.sinc(X[:,0]/np.pi)+0.1*rng.normal(size=n)
res=[]
t=time.time()
for seed in range(10):
    r=np.random.default_rng(seed)
    X,y=sinc(200,r); Xt,yt=sinc(400,r); yt=np.sinc(Xt[:,0]/np.pi)
    g=la.fit('rr-lssvr',X,y,C=100,sigma2=4,n_support=10,tol=0,drift=False)
    rd=la.fit('reduced-lssvr',X,y,C=100,sigma2=4,n_support=10,rng=seed)
    e=lambda f: np.sqrt(np.mean((f.predict(Xt)-yt)**2))
    res.append((e(g),e(rd)))
print(time.time()-t, np.mean(res,0), np.mean([a<b for a,b in res]))
