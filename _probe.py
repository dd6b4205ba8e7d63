import numpy as np, lssvm_analysis as la
from lssvm_analysis.analysis.measures import backward_error
rng=np.random.default_rng(1)
N=40
X=rng.uniform(-3,3,(N,2)); y=np.sinc(X[:,0])+0.05*X[:,1]
for pr in ['float32','float64','longdouble']:
  for r in ['lstsq','literal','relative-ridge']:
    f=la.fit('reduced-lssvr',X,y,precision=pr,C=10,sigma2=0.5,n_support=10,rng=3,ridge=r)
    A,b,un=la.get_solver('reduced-lssvr').system(X,y,f)
    be=backward_error(A,f.diagnostics['solution'],b).value
    u=la.get_precision(pr).unit_roundoff
    print(pr,r,f.status, be/(11*u), np.linalg.cond(np.asarray(A,float)))
  for up in ['cholesky','bordered-inverse']:
    f=la.fit('rr-lssvr',X,y,precision=pr,C=10,sigma2=0.5,n_support=10,tol=0,update=up)
    A,b,un=la.get_solver('rr-lssvr').system(X,y,f)
    be=backward_error(A,f.diagnostics['solution'],b).value
    u=la.get_precision(pr).unit_roundoff
    J=f.diagnostics['objective']; B=f.diagnostics['objective_bound']
    print(pr,up,f.support_, be/(11*u), np.linalg.cond(np.asarray(A,float)), np.max(np.diff(J)/(B[1:]+B[:-1])))
